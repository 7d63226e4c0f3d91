// Entry point of the page: starts the WebAssembly core, creates the shared state store
// (synchronised with the URL) and mounts each figure into the element that names it with
// data-figure. Figures are independent: one failing leaves the others working.

import { labReady } from './core.js';
import { debounce } from './lib/debounce.js';
import { createStore } from './lib/state.js';
import { addFigureToolbar } from './lib/figure-toolbar.js';
import { scrollableWhenOverflowing } from './lib/scroll-region.js';
import { FIGURES } from './figures/index.js';

const URL_WRITE_DELAY_MS = 250; // browsers throttle history updates made on every slider tick

const noticeList = document.getElementById('notices');

// A display formula that is wider than a narrow screen scrolls sideways; while it does, it is
// a named tab stop so the keyboard can scroll it too.
for (const formula of document.querySelectorAll('.tex-display')) {
  scrollableWhenOverflowing(formula, 'formula, scrolls sideways');
}

function showNotice(message) {
  const item = document.createElement('li');
  item.textContent = message;
  noticeList.appendChild(item);
  noticeList.hidden = false;
}


const state = createStore({
  search: location.search,
  writeSearch: debounce((search) => {
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, URL_WRITE_DELAY_MS),
  onNotice: showNotice,
});

function setStatus(figure, text, isError = false) {
  let status = figure.querySelector('.figure-status');
  if (!status) {
    status = document.createElement('p');
    status.className = 'figure-status';
    figure.insertBefore(status, figure.firstChild);
  }
  status.textContent = text;
  status.classList.toggle('figure-status-error', isError);
  status.setAttribute('role', isError ? 'alert' : 'status');
  return status;
}

// Unknown names in the link: one that looks like a setting of a figure on this page
// ("temperature.tua") gets a notice and is ignored; anything else (e.g. a tracking parameter
// added by the site that shared the link) is left alone without a word.
const MAX_NAMES_LISTED = 5;
const MAX_NAME_LENGTH = 40;
function noticeUnknownSettings(figureNames) {
  const ours = state.unknownParams().filter((param) => figureNames.has(param.split('.')[0]) && param.includes('.'));
  if (!ours.length) return;
  const shown = ours.slice(0, MAX_NAMES_LISTED)
    .map((param) => (param.length > MAX_NAME_LENGTH ? `${param.slice(0, MAX_NAME_LENGTH)}\u2026` : param));
  const more = ours.length > MAX_NAMES_LISTED ? ` and ${ours.length - MAX_NAMES_LISTED} more` : '';
  const what = ours.length === 1 ? 'a setting this page does not have' : 'settings this page does not have';
  showNotice(`The link names ${what} (${shown.join(', ')}${more}); ignored.`);
}

// Read-only introspection for tests and the browser console: a figure's keys, their
// schemas and current values. Nothing here can change the page.
window.attentionLab = Object.freeze({
  keys: (figure) => state.keysOf(figure),
  schema: (key) => state.schemaOf(key),
  value: (key) => state.get(key),
  // The WebAssembly module's heap, stack pointer and live handle count (tests/browser/boundary.test.mjs).
  memoryStats: async () => (await labReady).memoryStats(),
});

// A link to #figure-<name> (as "Copy link" makes) is scrolled to by the browser before the
// figures above it have drawn and grown; scroll to it again once they have, unless the
// reader has already moved on their own.
let readerScrolled = false;
for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {
  addEventListener(type, () => { readerScrolled = true; }, { once: true, passive: true });
}
function rescrollToHash() {
  if (readerScrolled || location.hash.length < 2) return;
  let id;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return; // a malformed hash: leave the page where it is
  }
  document.getElementById(id)?.scrollIntoView();
}

async function start() {
  const figures = [...document.querySelectorAll('[data-figure]')];
  for (const figure of figures) setStatus(figure, 'Starting the WebAssembly core\u2026');

  let lab;
  try {
    lab = await labReady;
  } catch (error) {
    for (const figure of figures) {
      setStatus(figure, `This figure needs WebAssembly, which failed to start: ${error.message}`, true);
    }
    throw error;
  }

  const mounted = new Set();
  for (const figure of figures) {
    const name = figure.dataset.figure;
    try {
      if (!FIGURES[name]) throw new Error(`no figure module named "${name}"`);
      FIGURES[name].mount(figure, { lab, state });
      figure.querySelector('.figure-status')?.remove();
      mounted.add(name);
    } catch (error) {
      setStatus(figure, `This figure could not be drawn: ${error.message}`, true);
      console.error(error);
      continue;
    }
    try {
      addFigureToolbar(figure, { figureName: name, state, embedBase: new URL('./', location.href) });
    } catch (error) {
      console.error(error); // the figure itself still works without its toolbar
    }
  }
  noticeUnknownSettings(mounted);
  rescrollToHash();
  // A hook for tests and screenshots: every figure has had its chance to mount.
  document.documentElement.dataset.labReady = 'true';
}

start();
