// How a figure is presented, apart from its settings: the colour theme, where the full page
// lives (for the links the toolbar hands out), what to hide (toolbar, caption, padding) and
// the layout: 'page' (a figure in running text) or 'slide' (one 1280×720 screen, text
// readable from the back of a room; see the [data-al-layout="slide"] rules in styles.css).
// The same names serve as URL keys (index.html?theme=dark, embed.html?figure=…&toolbar=off)
// and as <attention-figure> attributes. They are not figure settings: no store, no links.
// No figure may use these names for a setting (tests/browser/author-host.test.mjs checks).

export const PRESENTATION_CHOICES = {
  // host: the iframe takes the host page's scheme from attention-lab-resize.js (embed.js);
  // until told, and on the element (which sees its host's scheme itself), as auto.
  theme: ['auto', 'light', 'dark', 'host'],
  toolbar: ['on', 'off'],
  notes: ['on', 'off'],
  padding: ['on', 'off'],
  layout: ['page', 'slide'],
};
export const PRESENTATION_KEYS = [...Object.keys(PRESENTATION_CHOICES), 'page'];

const MAX_QUOTED = 60;
const quote = (text) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}\u2026` : text);

/**
 * Reads the presentation keys through get(name) (a URL's params or an element's attributes;
 * null when absent). A bad value gets a notice and the default. `page` is resolved against
 * `base` and must be an http(s) address. Returns { theme, toolbar, notes, padding, layout,
 * page },
 * page being a URL or null.
 */
export function readPresentation(get, { askedBy = 'The link', notice = () => {}, base = location.href } = {}) {
  const result = {};
  for (const [name, choices] of Object.entries(PRESENTATION_CHOICES)) {
    const raw = get(name);
    const value = raw === null || raw === undefined ? choices[0] : String(raw).trim().toLowerCase();
    if (choices.includes(value)) {
      result[name] = value;
    } else {
      notice(`${askedBy} asked for ${name} = ${quote(String(raw))}, which is not one of ${choices.join(', ')}; using ${choices[0]}.`);
      result[name] = choices[0];
    }
  }
  result.page = null;
  const page = get('page');
  if (page !== null && page !== undefined && page !== '') {
    let url = null;
    try {
      url = new URL(page, base);
    } catch {
      url = null;
    }
    if (url && (url.protocol === 'https:' || url.protocol === 'http:')) result.page = url;
    else notice(`${askedBy} asked for page = ${quote(String(page))}, which is not an http(s) address; its links point at the lab's own page instead.`);
  }
  return result;
}

/**
 * Shows a presentation on `root` (the page's or embed's <html>, the element's frame) as
 * data-al-* attributes, which styles.css turns into a color-scheme, hidden parts and the
 * slide layout.
 * theme 'auto' leaves the scheme to whatever `root` inherits, or (inheritScheme false) to
 * the reader's preference.
 */
export function applyPresentation(root, { theme: asked, toolbar, notes, padding, layout = 'page' }, { inheritScheme = false } = {}) {
  const theme = asked === 'host' ? 'auto' : asked;
  const set = (name, value, isDefault) => {
    if (isDefault) root.removeAttribute(`data-al-${name}`);
    else root.setAttribute(`data-al-${name}`, value);
  };
  if (theme === 'auto' && inheritScheme) {
    // The element: follow the host's color-scheme where the host sets one ("light", "only
    // dark", or a <meta name="color-scheme"> for a page that leaves it "normal"); where it
    // sets none, or both, follow the reader's preference.
    root.removeAttribute('data-al-theme');
    let host = getComputedStyle(root).colorScheme;
    if (host === 'normal') host = document.querySelector('meta[name="color-scheme"]')?.content ?? host;
    const one = ['light', 'dark'].filter((scheme) => host.split(/[\s,]+/).includes(scheme));
    root.setAttribute('data-al-theme', one.length === 1 ? one[0] : 'system');
  } else {
    set('theme', theme, theme === 'auto');
  }
  set('toolbar', toolbar, toolbar === 'on');
  set('notes', notes, notes === 'on');
  set('padding', padding, padding === 'on');
  set('layout', layout, layout === 'page');
}
