// Entry point of the page: starts the WebAssembly core, creates the shared state store
// (synchronised with the URL) and mounts each figure into the element that names it with
// data-figure. Figures are independent: one failing leaves the others working.

import { labReady } from './load-wasm.js';
import { debounce } from './lib/state/debounce.js';
import { createStore } from './lib/state/store.js';
import { scrollableWhenOverflowing } from './lib/dom/scroll-region.js';
import { applyPresentation, readPresentation } from './lib/state/presentation.js';
import { mountFigure, noticeBoard, showStarting } from './mount-figure.js';
import { mountInTurn } from './mount-queue.js';

const URL_WRITE_DELAY_MS = 250; // browsers throttle history updates made on every slider tick

const showNotice = noticeBoard(document.getElementById('notices'));

// theme=light|dark, toolbar=off, notes=off, padding=off, layout=slide in the link (not figure
// settings).
const presentation = readPresentation((name) => new URLSearchParams(location.search).get(name), { notice: showNotice });
applyPresentation(document.documentElement, presentation);

// A display formula that is wider than a narrow screen scrolls sideways; while it does, it is
// a named tab stop so the keyboard can scroll it too. Its typeset content is a block as wide as
// the box, which changes size only with it: the box alone is watched.
for (const formula of document.querySelectorAll('.tex-display')) {
  scrollableWhenOverflowing(formula, 'formula, scrolls sideways', { watchContent: false });
}

const state = createStore({
  search: location.search,
  writeSearch: debounce((searchNow) => {
    history.replaceState(history.state, '', `${location.pathname}${searchNow()}${location.hash}`);
  }, URL_WRITE_DELAY_MS),
  onNotice: showNotice,
});

// Read-only introspection for tests and the browser console: a figure's keys, their
// schemas and current values. Nothing here can change the page.
window.attentionLab = Object.freeze({
  keys: (figure) => state.keysOf(figure),
  schema: (key) => state.schemaOf(key),
  value: (key) => state.get(key),
  // The WebAssembly module's heap, stack pointer and live handle count (tests/browser/page-heap.test.mjs).
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
  const links = { embedBase: new URL('./', location.href), pageUrl: presentation.page ?? undefined };
  const figures = [...document.querySelectorAll('[data-figure]')];
  for (const figure of figures) showStarting(figure);
  // Figures are independent: one failing leaves the others working. They mount one per task,
  // the one in view first, so the first screen is usable at once on a slow machine.
  await mountInTurn(figures, (figure) => mountFigure(figure, figure.dataset.figure, {
    lab: labReady, state, links, notice: showNotice,
  }));
  rescrollToHash();
  // A hook for tests and screenshots: every figure has had its chance to mount.
  document.documentElement.dataset.labReady = 'true';
  performance.mark('attention-lab:all-mounted');
}

start();
