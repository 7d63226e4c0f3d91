// Entry point of embed.html: one figure of the page on its own, for an <iframe> in a course
// page. The figure's name and settings come from the URL:
//   embed.html?figure=temperature&query=7&tau=0.5
// Settings the learner changes are written back to the URL (so "copy link" from the frame and
// a reload keep them), and the frame tells its parent its height with postMessage so the
// host page can size the iframe to its content. Mounting itself is mount-figure.js's job.

import { labReady } from './load-wasm.js';
import { prefixedSearch, unprefixedPairs } from './lib/state/embed-keys.js';
import { PRESENTATION_KEYS, applyPresentation, readPresentation } from './lib/state/presentation.js';
import FIGURE_MARKUP from 'attention-lab:figure-markup';
import { debounce } from './lib/state/debounce.js';
import { createStore } from './lib/state/store.js';
import { htmlElement } from './lib/dom/elements.js';
import { mountFigure, noticeBoard } from './mount-figure.js';
import { FIGURES } from './figures/index.js';
import { connectScorm } from './lib/lms/scorm.js';

const URL_WRITE_DELAY_MS = 250; // browsers throttle history updates made on every slider tick
const root = document.getElementById('embed-root');
const showNotice = noticeBoard(document.getElementById('notices'));

// Reports the document's height to the host page whenever it changes, and again whenever the
// host asks (attention-lab:measure): a host script that starts after this frame's first report
// asks, so neither side depends on which of the two started first.
function reportHeight(figureName) {
  if (window.parent === window) return;
  let last = 0;
  const send = (always) => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last && always !== true) return;
    last = height;
    window.parent.postMessage({ type: 'attention-lab:height', figure: figureName, height }, '*');
  };
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.data?.type === 'attention-lab:measure') send(true);
  });
  new ResizeObserver(() => send(false)).observe(document.documentElement);
  send(false);
}

// theme=host: the host page's attention-lab-resize.js tells the frame the host's colour scheme,
// now and whenever it changes. Only the window that holds this frame may say it, and only
// light or dark; until it does, the frame follows the reader's preference, as with auto. The
// frame says hello once it listens, since the host's first word may come before that.
function followHostScheme(presentation) {
  if (presentation.theme !== 'host' || window.parent === window) return;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source !== window.parent || !data || typeof data !== 'object' || data.type !== 'attention-lab:scheme') return;
    if (data.scheme !== 'light' && data.scheme !== 'dark') return;
    applyPresentation(document.documentElement, { ...presentation, theme: data.scheme });
  });
  window.parent.postMessage({ type: 'attention-lab:hello' }, '*');
}

/**
 * The embed's parameters: the URL's; but an LMS package's launch page carries its figure and
 * settings in <html data-launch="figure=…&…">, since an LMS launches it with a query of its
 * own (or none), which is not the figure's.
 */
function launchParams() {
  const launch = document.documentElement.dataset.launch;
  return new URLSearchParams(launch === undefined ? location.search : launch);
}

async function start() {
  const params = launchParams();
  const figureName = params.get('figure') ?? '';
  // theme, page, toolbar, notes, padding, layout: how the figure is shown, kept in the URL as given.
  const presentation = readPresentation((name) => params.get(name), { notice: showNotice });
  applyPresentation(document.documentElement, presentation);
  followHostScheme(presentation);
  const shown = [...params].filter(([name]) => PRESENTATION_KEYS.includes(name));
  // The embed's URL names settings without the figure prefix the store uses.
  const state = createStore({
    search: prefixedSearch(figureName, [...params].filter(([name]) => !PRESENTATION_KEYS.includes(name))),
    writeSearch: debounce((searchNow) => {
      if (document.documentElement.dataset.launch !== undefined) return; // the LMS's URL is not ours
      const own = new URLSearchParams([['figure', figureName], ...shown, ...unprefixedPairs(figureName, searchNow())]);
      history.replaceState(history.state, '', `${location.pathname}?${own}`);
    }, URL_WRITE_DELAY_MS),
    onNotice: showNotice,
    paramLabel: (param) => (param.startsWith(`${figureName}.`) ? param.slice(figureName.length + 1) : param),
  });
  const links = {
    // Where the full page lives: the page key, else index.html beside this embed. The embed
    // code points at embed.html and attention-figure.js in that page's folder.
    pageUrl: presentation.page ?? new URL('index.html', location.href),
    settingName: (param) => (param.startsWith(`${figureName}.`) ? param.slice(figureName.length + 1) : param),
  };
  const figure = await mountFigure(root, figureName, {
    lab: labReady, state, links, notice: showNotice, markup: FIGURE_MARKUP,
  });
  if (figure) {
    const heading = figure.querySelector('figcaption')?.textContent.trim().split('.')[0] || figureName;
    // Headings for screen readers finding their way by headings (sighted readers see the
    // caption): two levels, as on the page, so a figure's own h3 panel titles stay in order.
    const h1 = htmlElement('h1', { class: 'visually-hidden' }, 'Attention Lab');
    root.insertBefore(h1, figure);
    root.insertBefore(htmlElement('h2', { class: 'visually-hidden' }, heading), figure);
    document.title = `${heading} · Attention Lab`;
  }
  reportHeight(figureName);
  // In an LMS package (data-lms="scorm12" or "scorm2004"), report the learner's progress to
  // the LMS, if any.
  const lms = document.documentElement.dataset.lms;
  if (figure && (lms === 'scorm12' || lms === 'scorm2004')) {
    connectScorm({ root: document, graded: Boolean(FIGURES[figureName]?.REPORTS_PROGRESS), version: lms });
  }
  document.documentElement.dataset.labReady = 'true';
}

start();
