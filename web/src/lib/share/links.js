// The links a figure's toolbar hands out, computed from the store: a link to the page at
// this figure's current settings, and the two embed snippets (iframe, element). Pure
// functions of the store and a few URLs.

import EMBED_HEIGHTS from './embed-heights.json' with { type: 'json' };

const MAX_FRAME_HEIGHT = 20000;

/** Text safe inside a double-quoted HTML attribute. */
export function escapeAttribute(value) {
  return String(value).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The keys of a figure that belong in links, with their URL names and unprefixed names. */
export function figureKeys(state, figureName) {
  const own = state.keysOf(figureName)
    .map((key) => ({ key, schema: state.schemaOf(key) }))
    .filter(({ schema }) => schema.url !== false)
    .map(({ key, schema }) => ({ key, schema, param: schema.param ?? key, short: key.slice(figureName.length + 1) }));
  // Page-level keys the figure follows (the sentence): the same name on the page and in embeds.
  const page = state.keysOf('')
    .filter((key) => !key.includes('.'))
    .map((key) => ({ key, schema: state.schemaOf(key) }))
    .filter(({ schema }) => schema.url !== false && schema.figures?.includes(figureName))
    .map(({ key, schema }) => ({ key, schema, param: schema.param ?? key, short: schema.param ?? key, page: true }));
  return [...own, ...page];
}

/** A link to the page carrying only this figure's settings that differ from their defaults. */
export function figureLink({ state, figureName, pageUrl }) {
  const url = new URL(pageUrl);
  const params = new URLSearchParams();
  for (const { key, schema, param } of figureKeys(state, figureName)) {
    const value = state.get(key);
    if (value !== schema.default) params.set(param, state.textOf(key, value));
  }
  const search = params.toString();
  url.search = search ? `?${search}` : '';
  url.hash = `figure-${figureName}`;
  return url.href;
}

/** This figure's current settings under their short (unprefixed) names. */
export function figureSettings(state, figureName) {
  return Object.fromEntries(figureKeys(state, figureName).filter((k) => !atPageDefault(state, k)).map(({ key, short }) => [short, state.get(key)]));
}

/** A page-level key (the sentence) at its default is left out of settings, attributes and snippets. */
function atPageDefault(state, { key, schema, page }) {
  return page === true && state.get(key) === schema.default;
}

/**
 * The tallest this figure's embed is at its defaults at 375, 768 and 1280 px (px, rounded up to
 * 10), as node scripts/readme-tables.mjs --heights measured it; 0 for a figure it does not list.
 */
export function tallestEmbed(figureName) {
  const byWidth = Object.hasOwn(EMBED_HEIGHTS, figureName) ? EMBED_HEIGHTS[figureName] : {};
  return Math.max(0, ...Object.values(byWidth));
}

/** The same, spelled as the element's attributes and the links take them (on/off, see store.js). */
export function figureAttributes(state, figureName) {
  return Object.fromEntries(figureKeys(state, figureName).filter((k) => !atPageDefault(state, k)).map(({ key, short }) => [short, state.textOf(key)]));
}

/**
 * The two embed snippets: { iframe, element } (HTML text), and the iframe's src, for the current
 * settings. pageLink (optional): the link to this figure at these settings on the full page,
 * which the element shows where its script cannot run, under the figure's picture.
 * presentation (optional): presentation keys (presentation.js: theme, toolbar, …) to add to
 * both, as { toolbar: 'off' }; the author page passes those that differ from their defaults.
 */
export function embedSnippets({ state, figureName, embedBase, title, height = 640, pageLink = null, presentation = {} }) {
  const figureSettingsText = figureAttributes(state, figureName);
  const settings = { ...figureSettingsText, ...presentation };
  const params = new URLSearchParams({ figure: figureName });
  for (const [name, value] of Object.entries(settings)) params.set(name, value);
  const base = new URL(embedBase);
  // #picture-NAME: where the frame cannot run scripts, its <noscript> shows this figure's picture.
  const src = new URL(`embed.html?${params}#picture-${figureName}`, base).href;
  const script = new URL('attention-figure.js', base).href;
  const frameHeight = Math.min(MAX_FRAME_HEIGHT, Math.max(200, Math.round(height)));

  // No inline script or style: a host whose Content-Security-Policy allows only files (an LMS)
  // still runs the resize listener, which checks each message's origin against its frame's src.
  const resizer = new URL('attention-lab-resize.js', base).href;
  const iframe = [
    `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}"`,
    `  data-attention-lab="${escapeAttribute(figureName)}" width="100%" height="${frameHeight}" loading="lazy" frameborder="0"></iframe>`,
    `<script src="${escapeAttribute(resizer)}" defer></script>`,
  ].join('\n');

  const attributes = Object.entries(settings).map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  // Its content shows only where the script cannot run (the element's shadow root hides it):
  // the figure's picture at its defaults (dist/pictures/, made by scripts/build-pictures.mjs;
  // lazy, so a reader with scripts never fetches it) and a link to it at these settings.
  const picture = new URL(`pictures/${figureName}.png`, base).href;
  const shown = Object.entries(figureSettingsText).map(([name, value]) => `${name} = ${value}`).join(', ');
  const fallback = [
    `<img src="${escapeAttribute(picture)}" alt="${escapeAttribute(`${title}, at its default settings: scripts cannot run here`)}" width="100%" loading="lazy">`,
    pageLink ? `<a href="${escapeAttribute(pageLink)}">${escapeAttribute(`Open the interactive figure${shown ? ` at ${shown}` : ''}`)}</a>` : '',
  ].join('');
  const element = [
    `<script src="${escapeAttribute(script)}"></script>`,
    `<attention-figure name="${escapeAttribute(figureName)}"${attributes}>${fallback}</attention-figure>`,
  ].join('\n');
  return { iframe, element, src };
}
