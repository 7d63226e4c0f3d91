// Entry point of author.html, the author page: a course author picks a figure, its settings
// (controls made from the figure's own SETTINGS schemas, validated by the same store the
// figures use), its presentation (theme, hidden parts, layout: presentation.js), previews it
// in the real embed.html at 375, 768 and 1280 px in light and dark, and copies the iframe or
// element code (links.js) or downloads an LMS package (lms-package.js), all at those choices.
// No inline script or style: the page runs under the same CSP as the rest.

import FIGURE_TITLES from 'attention-lab:figure-titles';
import { FIGURES } from './figures/index.js';
import { htmlElement, uniqueId } from './lib/dom/elements.js';
import { readNumber } from './lib/controls/number-field.js';
import { copyText } from './lib/share/clipboard.js';
import { downloadFile } from './lib/export/download.js';
import { embedSnippets, figureAttributes, figureKeys, figureLink, tallestEmbed } from './lib/share/links.js';
import EMBED_HEIGHTS from './lib/share/embed-heights.json' with { type: 'json' };
import { createStore } from './lib/state/store.js';
import { PRESENTATION_CHOICES } from './lib/state/presentation.js';
import { debounce } from './lib/state/debounce.js';

const PREVIEW_WIDTHS = [375, 768, 1280];
const PREVIEW_THEMES = ['light', 'dark'];
const PREVIEW_DELAY_MS = 400; // previews reload this long after the last change
const STATUS_CLEAR_MS = 8000;

// How the presentation keys read on this page; a key presentation.js adds later still gets a
// control, named by its key.
const PRESENTATION_LABELS = {
  theme: { label: 'Theme', choices: { auto: 'the reader\u2019s', light: 'light', dark: 'dark', host: 'the host page\u2019s' } },
  toolbar: { label: 'Show the toolbar (links, embed code, export)' },
  notes: { label: 'Show the notes under the figure' },
  padding: { label: 'Keep the padding around the figure' },
  layout: { label: 'Layout', choices: { page: 'page: in running text', slide: 'slide: one 1280\u00d7720 screen' } },
};

const byId = (id) => document.getElementById(id);
const form = byId('author-form');
const figurePicker = byId('author-figure');
const settingsBox = byId('author-settings');
const presentationBox = byId('author-presentation');
const notices = byId('author-notices');
const iframeCode = byId('author-iframe-code');
const elementCode = byId('author-element-code');
const status = byId('author-status');
const grid = byId('author-preview-grid');

const filesBase = new URL('./', location.href);
const pageUrl = new URL('index.html', filesBase);
const titleOf = (name) => `Attention Lab: ${FIGURE_TITLES[name] ?? name}`;

let statusTimer = null;
function say(text) {
  clearTimeout(statusTimer);
  status.textContent = text;
  statusTimer = setTimeout(() => { status.textContent = ''; }, STATUS_CLEAR_MS);
}

function notice(text) {
  notices.hidden = false;
  htmlElement('li', {}, text, notices);
}
const clearNotices = () => {
  notices.replaceChildren();
  notices.hidden = true;
};

// The current choices -----------------------------------------------------------------------
let figureName = '';
let state = null;
const presentation = Object.fromEntries(Object.entries(PRESENTATION_CHOICES).map(([key, choices]) => [key, choices[0]]));
/** The presentation keys that differ from their defaults, as links and attributes spell them. */
const presentationChanged = () => Object.fromEntries(Object.entries(presentation)
  .filter(([key, value]) => value !== PRESENTATION_CHOICES[key][0]));

// Settings: one control per key of the figure's SETTINGS ------------------------------------
const refreshers = [];

function rangeHint(key, schema) {
  const def = state.textOf(key, schema.default);
  if (schema.type === 'integer' || schema.type === 'number') {
    const kind = schema.type === 'integer' ? 'a whole number' : 'a number';
    const range = schema.min !== undefined && schema.max !== undefined ? ` from ${schema.min} to ${schema.max}` : '';
    return `${kind}${range}; ${def} by default`;
  }
  return `one of ${schema.values.map((value) => state.textOf(key, value)).join(', ')}; ${def} by default`;
}

function settingControl(parent, { key, schema, short }) {
  const id = uniqueId('author-setting');
  const row = htmlElement('p', { class: 'author-field' }, null, parent);
  if (schema.type === 'boolean') {
    row.classList.add('author-check');
    const box = htmlElement('input', { id, type: 'checkbox' }, null, row);
    htmlElement('label', { for: id }, short, row);
    box.addEventListener('change', () => change(key, box.checked));
    refreshers.push(() => { box.checked = state.get(key); });
    return;
  }
  const hintId = `${id}-hint`;
  htmlElement('label', { for: id }, short, row);
  if (schema.type === 'enum') {
    const select = htmlElement('select', { id, 'aria-describedby': hintId }, null, row);
    for (const value of schema.values) htmlElement('option', { value: String(value) }, state.textOf(key, value), select);
    select.addEventListener('change', () => change(key, schema.values[select.selectedIndex]));
    refreshers.push(() => { select.selectedIndex = schema.values.indexOf(state.get(key)); });
  } else {
    const field = htmlElement('input', {
      id, type: 'text', inputmode: schema.type === 'integer' ? 'numeric' : 'decimal', autocomplete: 'off',
      spellcheck: 'false', 'aria-describedby': hintId, class: 'author-number',
    }, null, row);
    field.addEventListener('change', () => {
      // Typed numbers are read by the page's one rule (number-field.js); the store clamps them.
      const { value, problem } = readNumber(field.value);
      if (problem) {
        field.setAttribute('aria-invalid', 'true');
        say(`${short}: ${field.value.trim() || 'nothing'} is not a number this page can read; it stays ${state.textOf(key)}.`);
        return;
      }
      field.removeAttribute('aria-invalid');
      change(key, value);
    });
    refreshers.push(() => {
      field.value = state.textOf(key);
      field.removeAttribute('aria-invalid');
    });
  }
  htmlElement('span', { id: hintId, class: 'author-hint' }, rangeHint(key, schema), row);
}

function pickFigure(name) {
  figureName = name;
  clearNotices();
  // A fresh store for the figure, with its schemas and its rule, as mountFigure gives it.
  state = createStore({ askedBy: 'This page', onNotice: notice, paramLabel: (param) => param.slice(name.length + 1) });
  state.constrain(name, FIGURES[name].resolveSettings);
  state.defineAll(FIGURES[name].SETTINGS ?? {});
  refreshers.length = 0;
  settingsBox.querySelectorAll(':scope > :not(legend)').forEach((node) => node.remove());
  const keys = figureKeys(state, name);
  if (!keys.length) htmlElement('p', { class: 'author-hint' }, 'This figure has no settings.', settingsBox);
  for (const entry of keys) settingControl(settingsBox, entry);
  refresh();
}

function change(key, value) {
  clearNotices();
  state.set(key, value, { origin: 'This page' });
  refresh();
}

// Presentation -------------------------------------------------------------------------------
for (const [key, choices] of Object.entries(PRESENTATION_CHOICES)) {
  const text = PRESENTATION_LABELS[key] ?? { label: key };
  const id = uniqueId('author-presentation');
  const row = htmlElement('p', { class: 'author-field' }, null, presentationBox);
  if (choices.length === 2 && choices.includes('on') && choices.includes('off')) {
    row.classList.add('author-check');
    const box = htmlElement('input', { id, type: 'checkbox' }, null, row);
    box.checked = presentation[key] === 'on';
    htmlElement('label', { for: id }, text.label, row);
    box.addEventListener('change', () => {
      presentation[key] = box.checked ? 'on' : 'off';
      refresh();
    });
  } else {
    htmlElement('label', { for: id }, text.label, row);
    const select = htmlElement('select', { id }, null, row);
    for (const choice of choices) htmlElement('option', { value: choice }, text.choices?.[choice] ?? choice, select);
    select.value = presentation[key];
    select.addEventListener('change', () => {
      presentation[key] = select.value;
      refresh();
    });
  }
}

// Code ---------------------------------------------------------------------------------------
function snippets() {
  const height = tallestEmbed(figureName) || 640;
  return embedSnippets({
    state, figureName, embedBase: filesBase, title: titleOf(figureName), height,
    pageLink: figureLink({ state, figureName, pageUrl }), presentation: presentationChanged(),
  });
}

byId('author-copy-iframe').addEventListener('click', async () => {
  say(await copyText(iframeCode.value, iframeCode) ? 'Iframe code copied.' : 'Iframe code selected: press Ctrl+C (\u2318C on a Mac) to copy it.');
});
byId('author-copy-element').addEventListener('click', async () => {
  say(await copyText(elementCode.value, elementCode) ? 'Element code copied.' : 'Element code selected: press Ctrl+C (\u2318C on a Mac) to copy it.');
});

const lmsButton = byId('author-lms');
lmsButton.addEventListener('click', async () => {
  if (!/^https?:$/.test(filesBase.protocol)) {
    say('This page was not served from a web address, so it cannot gather the files of a package.');
    return;
  }
  lmsButton.disabled = true;
  say('Building the LMS package\u2026');
  try {
    // The same builder the toolbar loads (lms-package.js, beside embed.html), loaded when asked.
    const { buildLmsPackage } = await import(/* a run-time file, not bundled */ new URL('lms-package.js', filesBase).href);
    const { name, bytes } = await buildLmsPackage({
      base: filesBase.href, figureName, title: titleOf(figureName), version: 'scorm12', page: pageUrl.href,
      settings: { ...figureAttributes(state, figureName), ...presentationChanged() },
    });
    downloadFile(name, bytes, 'application/zip');
    say(`Saved ${name} (${Math.round(bytes.length / 1024)} KiB): upload it to your LMS as a SCORM 1.2 package.`);
  } catch (error) {
    say(`The LMS package could not be built: ${error.message}`);
  } finally {
    lmsButton.disabled = false;
  }
});

// Previews -----------------------------------------------------------------------------------
const previews = [];
for (const width of PREVIEW_WIDTHS) {
  for (const theme of PREVIEW_THEMES) {
    const box = htmlElement('figure', { class: 'author-preview', 'data-width': String(width), 'data-theme': theme }, null, grid);
    htmlElement('figcaption', {}, `${width} px, ${theme}`, box);
    const viewport = htmlElement('div', { class: 'author-preview-viewport' }, null, box);
    const frame = htmlElement('iframe', {
      title: `Preview at ${width} px wide, ${theme} theme`, width: String(width), loading: 'lazy', class: 'author-preview-frame',
    }, null, viewport);
    previews.push({ width, theme, viewport, frame, height: 0 });
  }
}

/** Scales each preview's frame to the width its column has (CSSOM: the CSP allows it). */
function fitPreviews() {
  for (const preview of previews) {
    const room = preview.viewport.parentElement.clientWidth;
    const scale = Math.min(1, room / preview.width);
    const height = preview.height || EMBED_HEIGHTS[figureName]?.[preview.width] || 640;
    preview.frame.style.height = `${height}px`;
    preview.frame.style.transform = `scale(${scale})`;
    preview.viewport.style.height = `${Math.ceil(height * scale)}px`;
    preview.viewport.style.width = `${Math.floor(preview.width * scale)}px`;
  }
}
new ResizeObserver(() => fitPreviews()).observe(grid);

// Each embed tells its parent its height (embed.js); a preview grows to it.
window.addEventListener('message', (event) => {
  if (event.origin !== location.origin || event.data?.type !== 'attention-lab:height') return;
  const preview = previews.find((p) => p.frame.contentWindow === event.source);
  const height = Number(event.data.height);
  if (!preview || !Number.isFinite(height) || height <= 0 || height === preview.height) return;
  preview.height = Math.min(20000, Math.ceil(height));
  fitPreviews();
});

function previewSource(src, theme) {
  const url = new URL(src);
  for (const [key, value] of Object.entries(presentationChanged())) url.searchParams.set(key, value);
  url.searchParams.set('theme', theme);
  return url.href;
}

let lastFigure = '';
const loadPreviews = debounce((src) => {
  if (figureName !== lastFigure) {
    for (const preview of previews) preview.height = 0;
    lastFigure = figureName;
  }
  for (const preview of previews) {
    const next = previewSource(src, preview.theme);
    if (preview.frame.src !== next) preview.frame.src = next;
  }
  fitPreviews();
}, PREVIEW_DELAY_MS);

function refresh() {
  for (const update of refreshers) update();
  const { iframe, element, src } = snippets();
  iframeCode.value = iframe;
  elementCode.value = element;
  grid.dataset.src = src;
  loadPreviews(src);
}

// Start --------------------------------------------------------------------------------------
form.addEventListener('submit', (event) => event.preventDefault());
for (const name of Object.keys(FIGURES)) htmlElement('option', { value: name }, FIGURE_TITLES[name] ?? name, figurePicker);
const asked = new URLSearchParams(location.search).get('figure');
figurePicker.value = Object.hasOwn(FIGURES, asked ?? '') ? asked : Object.keys(FIGURES)[0];
figurePicker.addEventListener('change', () => {
  pickFigure(figurePicker.value);
  // The address names the figure, so a reload or a bookmark comes back to it.
  const url = new URL(location.href);
  url.searchParams.set('figure', figurePicker.value);
  history.replaceState(null, '', url);
});
pickFigure(figurePicker.value);
