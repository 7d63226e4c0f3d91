// A small toolbar under every figure: "Copy link" (a link to the page that reproduces this
// figure's current settings), "Embed code" (an iframe snippet with its resize script, and a
// custom-element snippet, both carrying the current settings) and "Export" (each heat map and
// plot as SVG or PNG, each matrix and plot's data as CSV or JSON; see ../export/) and
// "Present" (the figure alone, full screen, in the slide layout; see present.js). The Embed code
// panel also builds an LMS package (SCORM 1.2) of the figure at its current settings.
//
// "Embed code" and "Export" are disclosure buttons (disclosure.js): Enter or Space opens the
// panel under the row of buttons, one panel at a time; Escape or a click elsewhere closes it,
// and Escape returns focus to its button. Every result is announced in a polite live region
// under the toolbar.
//
//   addFigureToolbar(figureElement, { figureName, state, pageUrl, embedBase, filesBase, standalone })
//
// figureName: the figure's name (its state keys are `<figureName>.<key>`); state: the store;
// pageUrl (optional, a URL or a function returning one): the full page the copied link points
// to (default: this page, without its query and hash); null when no page is known (a copy of
// the element opened from file://), and then the toolbar says how to name one instead of
// handing out broken links; embedBase (optional, a URL or a function): where embed.html and
// attention-figure.js are served (default: the page's folder); filesBase (optional, a URL or
// null): where this figure's own files (embed.html and what it loads) are served, for the LMS
// package (default: this document's folder); standalone (optional): a
// function returning a promise of attention-figure.js's text, for the one-file download;
// lifetime (optional, lib/dom/lifetime.js): the figure's, whose end removes the toolbar's
// listener on the document, its timer and its subscription.

import { htmlElement, uniqueId } from '../dom/elements.js';
import { exportMenu } from '../export/menu.js';
import { copyText } from './clipboard.js';
import { disclosureGroup } from './disclosure.js';
import { presentButton } from './present.js';
import { embedSnippets, figureAttributes, figureKeys, figureLink, figureSettings, tallestEmbed } from './links.js';
import { standaloneFigure } from '../export/standalone.js';
import { figurePicture } from '../export/fallback.js';
import { lmsPackageBlock } from './lms-buttons.js';

const STATUS_CLEAR_MS = 6000;

/** Plain text of a heading that may hold MathML: without the TeX annotations, roots as "√". */
function plainText(node) {
  const copy = node.cloneNode(true);
  copy.querySelectorAll('annotation, annotation-xml').forEach((el) => el.remove());
  copy.querySelectorAll('msqrt').forEach((el) => el.prepend('\u221a'));
  return copy.textContent.trim().replace(/\s+/g, ' ');
}

function figureTitle(figureElement, figureName) {
  const heading = figureElement.closest('section')?.querySelector('h2');
  const text = heading ? plainText(heading) : '';
  return `Attention Lab: ${text || figureName}`;
}

/** Creates a labelled read-only text field with a copy button under it. */
function snippetField(parent, { label, buttonText, buttonLabel, onCopy }) {
  const id = uniqueId('snippet');
  const block = htmlElement('div', { class: 'figure-snippet' }, null, parent);
  htmlElement('label', { for: id, class: 'figure-snippet-label' }, label, block);
  const field = htmlElement('textarea', {
    id, readonly: '', rows: 4, spellcheck: 'false', autocomplete: 'off', class: 'figure-snippet-text',
  }, null, block);
  const button = htmlElement('button', { type: 'button', class: 'figure-tool', 'aria-label': buttonLabel }, buttonText, block);
  button.addEventListener('click', () => onCopy(field));
  // Selecting all on focus makes a manual copy one keystroke away.
  field.addEventListener('focus', () => field.select());
  return field;
}

/** attention-figure.js beside this page (the page and embed.html are served with it). */
async function fetchScript(base) {
  if (!base) throw new Error('no address to fetch attention-figure.js from');
  const response = await fetch(new URL('attention-figure.js', base));
  if (!response.ok) throw new Error(`attention-figure.js answered ${response.status}`);
  return response.text();
}

/**
 * The Embed code panel: the iframe and element snippets at the figure's current settings, kept
 * in step with its controls while open, and the LMS package buttons. Returns the panel's
 * disclosure and refresh().
 */
function addEmbedPanel(disclosure, { figureElement, bar, options, state, figureName, title, pageUrl, embedBase, current, say, NO_PAGE }) {
  let unsubscribe = null;
  const embed = disclosure('Embed code', 'figure-embed', {
    onOpen: () => {
      refreshEmbed();
      // Keep the snippets in step with the controls while the panel is open.
      unsubscribe = state.subscribe(figureKeys(state, figureName).map((k) => k.key), refreshEmbed);
    },
    onClose: () => {
      unsubscribe?.();
      unsubscribe = null;
    },
  });
  options.lifetime?.add(() => unsubscribe?.());
  const embedNote = htmlElement('p', { class: 'figure-tool-note' }, null, embed.panel);
  const frameField = snippetField(embed.panel, {
    label: 'As an iframe, with the script that sizes it', buttonText: 'Copy', buttonLabel: 'Copy iframe code',
    onCopy: async (field) => say(await copyText(field.value, field) ? 'Iframe code copied.' : 'Iframe code selected: press Ctrl+C to copy it.'),
  });
  const elementField = snippetField(embed.panel, {
    label: 'As an element, with its script', buttonText: 'Copy', buttonLabel: 'Copy element code',
    onCopy: async (field) => say(await copyText(field.value, field) ? 'Element code copied.' : 'Element code selected: press Ctrl+C to copy it.'),
  });
  // The files are read from where this figure itself is served, whatever page its links name.
  const filesBase = () => {
    if (options.filesBase !== undefined) return options.filesBase ? new URL(current(options.filesBase)) : null;
    return /^https?:$/.test(location.protocol) ? new URL('./', location.href) : null;
  };
  const lmsBlock = lmsPackageBlock(embed.panel, {
    filesBase, say, figureName, title,
    settings: () => figureAttributes(state, figureName),
    page: () => { const page = pageUrl(); return /^https?:$/.test(page?.protocol ?? '') ? page.href : null; },
  });

  function refreshEmbed() {
    const base = embedBase();
    frameField.closest('.figure-snippet').hidden = !base;
    elementField.closest('.figure-snippet').hidden = !base;
    lmsBlock.hidden = !base || !filesBase();
    embedNote.textContent = base ? 'Paste one of these into another page to show this figure there, with its current settings.' : NO_PAGE;
    if (!base) return;
    // The frame's height: the tallest this figure is at 375, 768 and 1280 px (measured, from the
    // README's table), or its height here without this toolbar and its open panel, if that is
    // taller (a setting such as more heads makes a figure taller), so that a host that strips the
    // resize script still shows the whole figure at any of those widths.
    const here = figureElement.getBoundingClientRect().height - bar.getBoundingClientRect().height;
    const height = Math.max(tallestEmbed(figureName), here > 0 ? here + 32 : 0) || 640;
    const page = pageUrl();
    const snippets = embedSnippets({
      state, figureName, embedBase: base, title, height, pageLink: page ? figureLink({ state, figureName, pageUrl: page }) : null,
    });
    frameField.value = snippets.iframe;
    frameField.rows = Math.min(8, snippets.iframe.split('\n').length);
    elementField.value = snippets.element;
    elementField.rows = 4;
  }

  return { embed, refreshEmbed };
}

/**
 * Adds the toolbar to a figure (at its end, after the caption). Returns { element, refresh }.
 */
export function addFigureToolbar(figureElement, options) {
  const { figureName, state } = options;
  const current = (option) => (typeof option === 'function' ? option() : option);
  const pageUrl = () => {
    const page = options.pageUrl === undefined ? `${location.origin}${location.pathname}` : current(options.pageUrl);
    return page ? new URL(page) : null;
  };
  const embedBase = () => {
    const base = current(options.embedBase);
    if (base) return new URL(base);
    const page = pageUrl();
    return page ? new URL('./', page) : null;
  };
  const NO_PAGE = 'This copy of the figure does not know where the full page lives, so it has no link to give: '
    + 'name it with the page attribute, e.g. <attention-figure page="https://example.org/attention-lab/index.html" \u2026>.';
  const title = figureTitle(figureElement, figureName);

  const bar = htmlElement('div', {
    class: 'figure-toolbar', role: 'group', 'aria-label': `Share or export: ${title.replace(/^Attention Lab: /, '')}`,
  }, null, figureElement);
  const buttons = htmlElement('div', { class: 'figure-toolbar-buttons' }, null, bar);
  const panels = htmlElement('div', { class: 'figure-toolbar-panels' }, null, bar);
  const status = htmlElement('p', { class: 'figure-toolbar-status', role: 'status' }, null, bar);
  let statusTimer = null;
  options.lifetime?.add(() => clearTimeout(statusTimer));
  function say(text) {
    clearTimeout(statusTimer);
    status.textContent = text;
    statusTimer = setTimeout(() => { status.textContent = ''; }, STATUS_CLEAR_MS);
  }

  // Copy link ------------------------------------------------------------------------------
  const linkButton = htmlElement('button', { type: 'button', class: 'figure-tool' }, 'Copy link', buttons);
  const linkId = uniqueId('figure-link');
  const linkBox = htmlElement('p', { class: 'figure-link-fallback', hidden: '' }, null, panels);
  htmlElement('label', { for: linkId }, 'Link to this view', linkBox);
  const linkField = htmlElement('input', { id: linkId, type: 'text', readonly: '', class: 'figure-snippet-text' }, null, linkBox);
  linkButton.addEventListener('click', async () => {
    const page = pageUrl();
    if (!page) {
      say(NO_PAGE);
      return;
    }
    const link = figureLink({ state, figureName, pageUrl: page });
    linkField.value = link;
    const copied = await copyText(link, linkField);
    if (copied) linkBox.hidden = true; // shown only while a manual copy is needed
    say(copied ? 'Link copied: it opens this figure with its current settings.'
      : 'The browser would not copy: the link is selected above, press Ctrl+C (\u2318C on a Mac).');
  });

  const disclosure = disclosureGroup(buttons, panels, { signal: options.lifetime?.signal });

  // Embed code -----------------------------------------------------------------------------
  const { embed, refreshEmbed } = addEmbedPanel(disclosure, {
    figureElement, bar, options, state, figureName, title, pageUrl, embedBase, current, say, NO_PAGE,
  });

  // Export -----------------------------------------------------------------------------------
  let buildExportList = () => {};
  const exporter = disclosure('Export', 'figure-export', { onOpen: () => buildExportList() });
  buildExportList = exportMenu(htmlElement('ul', { class: 'figure-export-list' }, null, exporter.panel), {
    figureElement, figureName, say, settings: () => figureSettings(state, figureName),
    // The whole figure as one HTML file: attention-figure.js inlined, with this element.
    standalone: async () => {
      const source = options.standalone ? await options.standalone() : await fetchScript(new URL('./', location.href));
      const page = pageUrl();
      const changed = Object.fromEntries(figureKeys(state, figureName)
        .filter(({ key, schema }) => state.get(key) !== schema.default)
        .map(({ key, short }) => [short, state.textOf(key)]));
      return standaloneFigure({
        source, figureName, title, settings: figureAttributes(state, figureName), changed, page,
        // Where scripts cannot run: the figure as drawn now, and a link to it at these settings.
        link: page ? figureLink({ state, figureName, pageUrl: page }) : null,
        picture: figurePicture(figureElement),
      });
    },
  });

  // Present ----------------------------------------------------------------------------------
  // First in the row: Tab from Export must reach its open panel, which follows the row.
  buttons.prepend(presentButton(figureElement, buttons, { lifetime: options.lifetime }));

  return {
    element: bar,
    /** Rebuilds an open panel, e.g. after the figure registered another matrix. */
    refresh() {
      if (embed.open) refreshEmbed();
      if (exporter.open) buildExportList();
    },
  };
}
