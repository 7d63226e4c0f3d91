// A small toolbar under every figure: "Copy link" (a link to the page that reproduces this
// figure's current settings), "Embed code" (an iframe snippet with its resize script, and a
// custom-element snippet, both carrying the current settings) and "Export" (each heat map and
// plot as SVG or PNG, each matrix and plot's data as CSV or JSON; see exportable.js).
//
// "Embed code" and "Export" are disclosure buttons (aria-expanded, aria-controls): Enter or
// Space opens the panel under the row of buttons, one panel at a time; Escape or a click
// elsewhere closes it, and Escape returns focus to its button. Every result is announced in
// a polite live region under the toolbar.
//
//   addFigureToolbar(figureElement, { figureName, state, embedBase })
//
// figureName: the figure's name (its state keys are `<figureName>.<key>`); state: the store;
// embedBase: the URL the embed files (embed.html, attention-figure.js) are served from;
// pageUrl (optional): the page the copied link points to (default: this page, without its
// query and hash).

import {
  downloadFile, listExportables, matrixToCsv, matrixToJson, normaliseMatrix, normaliseSeries,
  seriesToCsv, seriesToJson, slug, standaloneSvg, svgToPng,
} from './exportable.js';
import { htmlElement, uniqueId } from './svg.js';

const STATUS_CLEAR_MS = 6000;
const MAX_FRAME_HEIGHT = 20000;

/** Text safe inside a double-quoted HTML attribute. */
export function escapeAttribute(value) {
  return String(value).replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The keys of a figure that belong in links, with their URL names and unprefixed names. */
function figureKeys(state, figureName) {
  return state.keysOf(figureName)
    .map((key) => ({ key, schema: state.schemaOf(key) }))
    .filter(({ schema }) => schema.url !== false)
    .map(({ key, schema }) => ({ key, schema, param: schema.param ?? key, short: key.slice(figureName.length + 1) }));
}

/** A link to the page carrying only this figure's settings that differ from their defaults. */
export function figureLink({ state, figureName, pageUrl }) {
  const url = new URL(pageUrl);
  const params = new URLSearchParams();
  for (const { key, schema, param } of figureKeys(state, figureName)) {
    const value = state.get(key);
    if (value !== schema.default) params.set(param, String(value));
  }
  const search = params.toString();
  url.search = search ? `?${search}` : '';
  url.hash = `figure-${figureName}`;
  return url.href;
}

/** This figure's current settings under their short (unprefixed) names. */
export function figureSettings(state, figureName) {
  return Object.fromEntries(figureKeys(state, figureName).map(({ key, short }) => [short, state.get(key)]));
}

/** The two embed snippets: { iframe, element } (HTML text), for the current settings. */
export function embedSnippets({ state, figureName, embedBase, title, height = 640 }) {
  const settings = figureSettings(state, figureName);
  const params = new URLSearchParams({ figure: figureName });
  for (const [name, value] of Object.entries(settings)) params.set(name, String(value));
  const base = new URL(embedBase);
  const src = new URL(`embed.html?${params}`, base).href;
  const script = new URL('attention-figure.js', base).href;
  const frameHeight = Math.min(MAX_FRAME_HEIGHT, Math.max(200, Math.round(height)));

  const iframe = [
    `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}"`,
    `  data-attention-lab="${escapeAttribute(figureName)}" width="100%" height="${frameHeight}" loading="lazy"`,
    '  style="border: 0; max-width: 100%;"></iframe>',
    '<script>',
    '  // Attention Lab frames report their height; this grows each one to fit its figure.',
    "  window.addEventListener('message', function (event) {",
    '    var data = event.data;',
    `    if (event.origin !== ${JSON.stringify(base.origin)} || !data || data.type !== 'attention-lab:height') return;`,
    '    var height = Number(data.height);',
    `    if (!(height > 0 && height < ${MAX_FRAME_HEIGHT})) return;`,
    "    var frames = document.querySelectorAll('iframe[data-attention-lab]');",
    '    for (var i = 0; i < frames.length; i += 1) {',
    "      if (frames[i].contentWindow === event.source) frames[i].style.height = Math.ceil(height) + 'px';",
    '    }',
    '  });',
    '</script>',
  ].join('\n');

  const attributes = Object.entries(settings).map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  const element = [
    `<script src="${escapeAttribute(script)}"></script>`,
    `<attention-figure name="${escapeAttribute(figureName)}"${attributes}></attention-figure>`,
  ].join('\n');
  return { iframe, element, src };
}

/**
 * Copies text to the clipboard. When the Clipboard API is unavailable or refused, falls back
 * to selecting `field` (revealing it if hidden) and asking the browser to copy the selection.
 * Resolves to true when the text is on the clipboard, false when only the selection is left.
 */
export async function copyText(text, field = null) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no Clipboard API');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.value = text;
    field.hidden = false;
    field.closest('[hidden]')?.removeAttribute('hidden');
    field.focus();
    field.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

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

/**
 * Adds the toolbar to a figure (at its end, after the caption). Returns { element, refresh }.
 */
export function addFigureToolbar(figureElement, options) {
  const { figureName, state } = options;
  const embedBase = options.embedBase ?? new URL('./', location.href);
  const pageUrl = () => options.pageUrl ?? `${location.origin}${location.pathname}`;
  const title = figureTitle(figureElement, figureName);

  const bar = htmlElement('div', {
    class: 'figure-toolbar', role: 'group', 'aria-label': `Share or export: ${title.replace(/^Attention Lab: /, '')}`,
  }, null, figureElement);
  const buttons = htmlElement('div', { class: 'figure-toolbar-buttons' }, null, bar);
  const panels = htmlElement('div', { class: 'figure-toolbar-panels' }, null, bar);
  const status = htmlElement('p', { class: 'figure-toolbar-status', role: 'status' }, null, bar);
  let statusTimer = null;
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
    const link = figureLink({ state, figureName, pageUrl: pageUrl() });
    linkField.value = link;
    const copied = await copyText(link, linkField);
    if (copied) linkBox.hidden = true; // shown only while a manual copy is needed
    say(copied ? 'Link copied: it opens this figure with its current settings.'
      : 'The browser would not copy: the link is selected above, press Ctrl+C (\u2318C on a Mac).');
  });

  // Disclosures ------------------------------------------------------------------------------
  const menus = [];
  function disclosure(label, className, { onOpen = () => {}, onClose = () => {} } = {}) {
    const button = htmlElement('button', {
      type: 'button', class: 'figure-tool figure-tool-toggle', 'aria-expanded': 'false',
    }, label, buttons);
    htmlElement('span', { class: 'figure-tool-caret', 'aria-hidden': 'true' }, '\u25be', button);
    const panel = htmlElement('div', { id: uniqueId('figure-panel'), class: `figure-tool-panel ${className}`, hidden: '' }, null, panels);
    button.setAttribute('aria-controls', panel.id);
    const menu = {
      button,
      panel,
      get open() {
        return !panel.hidden;
      },
      set open(value) {
        if (value === menu.open) return;
        panel.hidden = !value;
        button.setAttribute('aria-expanded', String(value));
        if (value) {
          for (const other of menus) if (other !== menu) other.open = false;
          onOpen();
        } else {
          onClose();
        }
      },
    };
    button.addEventListener('click', () => { menu.open = !menu.open; });
    const closeOnEscape = (event) => {
      if (event.key !== 'Escape' || !menu.open) return;
      event.preventDefault();
      menu.open = false;
      button.focus();
    };
    button.addEventListener('keydown', closeOnEscape);
    panel.addEventListener('keydown', closeOnEscape);
    menus.push(menu);
    return menu;
  }

  // Embed code -----------------------------------------------------------------------------
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
  htmlElement('p', { class: 'figure-tool-note' },
    'Paste one of these into another page to show this figure there, with its current settings.', embed.panel);
  const frameField = snippetField(embed.panel, {
    label: 'As an iframe, with the script that sizes it', buttonText: 'Copy', buttonLabel: 'Copy iframe code',
    onCopy: async (field) => say(await copyText(field.value, field) ? 'Iframe code copied.' : 'Iframe code selected: press Ctrl+C to copy it.'),
  });
  const elementField = snippetField(embed.panel, {
    label: 'As an element, with its script', buttonText: 'Copy', buttonLabel: 'Copy element code',
    onCopy: async (field) => say(await copyText(field.value, field) ? 'Element code copied.' : 'Element code selected: press Ctrl+C to copy it.'),
  });
  function refreshEmbed() {
    // The figure without this toolbar (and its open panel): roughly what the embed will show.
    const height = figureElement.getBoundingClientRect().height - bar.getBoundingClientRect().height;
    const snippets = embedSnippets({ state, figureName, embedBase, title, height: height > 0 ? height + 32 : 640 });
    frameField.value = snippets.iframe;
    frameField.rows = Math.min(8, snippets.iframe.split('\n').length);
    elementField.value = snippets.element;
    elementField.rows = 3;
  }

  // Export -----------------------------------------------------------------------------------
  const exporter = disclosure('Export', 'figure-export', { onOpen: () => buildExportList() });
  const exportList = htmlElement('ul', { class: 'figure-export-list' }, null, exporter.panel);

  const fileName = (name, ext) => `${figureName}-${slug(name)}.${ext}`;
  const meta = (name) => ({ figure: figureName, name, settings: figureSettings(state, figureName) });

  async function run(label, action) {
    try {
      const saved = await action();
      say(`Saved ${saved}.`);
    } catch (error) {
      say(`Could not export ${label}: ${error.message}`);
    }
  }

  // A matrix or a plot's series as a text file: `read` gets it from the item, `format` writes it
  // (the JSON formats also take the figure's name and settings).
  const dataFile = (read, format, extension, type, what) => (item) => run(item.name, async () => {
    const data = read(item);
    if (!data) throw new Error(`it has no ${what} yet`);
    const name = fileName(item.name, extension);
    downloadFile(name, format(data, meta(item.name)), type);
    return name;
  });
  const actions = {
    svg: (item) => run(item.name, async () => {
      const { text } = standaloneSvg(item.svg, { series: item.getSeries?.()?.series ?? null });
      const name = fileName(item.name, 'svg');
      downloadFile(name, text, 'image/svg+xml');
      return name;
    }),
    png: (item) => run(item.name, async () => {
      const { text, width, height } = standaloneSvg(item.svg, { series: item.getSeries?.()?.series ?? null });
      const name = fileName(item.name, 'png');
      downloadFile(name, await svgToPng(text, width, height, 2), 'image/png');
      return name;
    }),
    matrixCsv: dataFile((item) => normaliseMatrix(item.getMatrix()), matrixToCsv, 'csv', 'text/csv;charset=utf-8', 'values'),
    matrixJson: dataFile((item) => normaliseMatrix(item.getMatrix()), matrixToJson, 'json', 'application/json', 'values'),
    seriesCsv: dataFile((item) => normaliseSeries(item.getSeries()), seriesToCsv, 'csv', 'text/csv;charset=utf-8', 'data'),
    seriesJson: dataFile((item) => normaliseSeries(item.getSeries()), seriesToJson, 'json', 'application/json', 'data'),
  };

  function addRow(name, kindText, formats) {
    const item = htmlElement('li', { class: 'figure-export-item' }, null, exportList);
    const label = htmlElement('span', { class: 'figure-export-name' }, null, item);
    label.append(name);
    htmlElement('span', { class: 'figure-export-kind' }, ` (${kindText})`, label);
    const row = htmlElement('span', { class: 'figure-export-formats' }, null, item);
    for (const [format, run] of formats) {
      const button = htmlElement('button', {
        type: 'button', class: 'figure-tool figure-tool-small', 'aria-label': `Download ${name} as ${format}`,
      }, format, row);
      button.addEventListener('click', run);
    }
  }

  function buildExportList() {
    exportList.replaceChildren();
    const { pictures, matrices } = listExportables(figureElement);
    const pictureMatrices = new Set(pictures.filter((p) => p.getMatrix).map((p) => p.name));
    for (const picture of pictures) {
      const formats = [['SVG', () => actions.svg(picture)], ['PNG', () => actions.png(picture)]];
      if (picture.kind === 'heatmap' && picture.getMatrix) {
        formats.push(['CSV', () => actions.matrixCsv(picture)], ['JSON', () => actions.matrixJson(picture)]);
      } else if (picture.getSeries) {
        formats.push(['CSV', () => actions.seriesCsv(picture)], ['JSON', () => actions.seriesJson(picture)]);
      }
      addRow(picture.name, picture.kind === 'heatmap' ? 'heat map' : 'plot', formats);
    }
    for (const matrix of matrices) {
      if (pictureMatrices.has(matrix.name)) continue;
      addRow(matrix.name, 'matrix', [['CSV', () => actions.matrixCsv(matrix)], ['JSON', () => actions.matrixJson(matrix)]]);
    }
    if (!exportList.children.length) htmlElement('li', { class: 'figure-tool-note' }, 'This figure has no pictures or matrices to export.', exportList);
  }

  // A click outside closes an open menu, as menus do. composedPath() sees through the shadow
  // root of the <attention-figure> element, where event.target is retargeted to the host.
  document.addEventListener('click', (event) => {
    if (!event.isTrusted) return; // the export's own synthetic click on its download link
    const path = event.composedPath();
    for (const menu of menus) if (menu.open && !path.includes(menu.button) && !path.includes(menu.panel)) menu.open = false;
  });

  return {
    element: bar,
    /** Rebuilds an open panel, e.g. after the figure registered another matrix. */
    refresh() {
      if (embed.open) refreshEmbed();
      if (exporter.open) buildExportList();
    },
  };
}
