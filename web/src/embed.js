// Entry point of embed.html: one figure of the page on its own, for an <iframe> in a course
// page. The figure's name and settings come from the URL:
//   embed.html?figure=temperature&query=7&tau=0.5
// Settings the learner changes are written back to the URL (so "copy link" from the frame and
// a reload keep them), and the frame tells its parent its height with postMessage so the
// host page can size the iframe to its content.

import { labReady } from './core.js';
import { prefixedSearch, unprefixedPairs } from './embed-keys.js';
import { FIGURES } from './figures/index.js';
import FIGURE_MARKUP from 'attention-lab:figure-markup';
import { debounce } from './lib/debounce.js';
import { addFigureToolbar } from './lib/figure-toolbar.js';
import { createStore } from './lib/state.js';
import { htmlElement } from './lib/svg.js';

const URL_WRITE_DELAY_MS = 250; // browsers throttle history updates made on every slider tick
const root = document.getElementById('embed-root');
const noticeList = document.getElementById('notices');

function showNotice(message) {
  htmlElement('li', {}, message, noticeList);
  noticeList.hidden = false;
}

function showProblem(message) {
  htmlElement('p', { class: 'figure-error', role: 'alert' }, message, root);
}

// Reports the document's height to the host page whenever it changes.
function reportHeight(figureName) {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attention-lab:height', figure: figureName, height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

async function start() {
  const params = new URLSearchParams(location.search);
  const figureName = params.get('figure') ?? '';
  if (!Object.hasOwn(FIGURES, figureName) || !Object.hasOwn(FIGURE_MARKUP, figureName)) {
    const known = Object.keys(FIGURES).join(', ');
    showProblem(figureName
      ? `There is no figure called “${figureName.slice(0, 40)}”. Figures: ${known}.`
      : `Name a figure in the link, for example embed.html?figure=temperature. Figures: ${known}.`);
    document.documentElement.dataset.labReady = 'true';
    return;
  }

  const template = document.createElement('template');
  template.innerHTML = FIGURE_MARKUP[figureName]; // built from our own index.html, never from the URL
  const figure = template.content.firstElementChild;
  const heading = figure.querySelector('figcaption')?.textContent.trim().split('.')[0] ?? figureName;
  // Headings for screen readers finding their way by headings (sighted readers see the
  // caption): two levels, as on the page, so a figure's own h3 panel titles stay in order.
  htmlElement('h1', { class: 'visually-hidden' }, 'Attention Lab', root);
  htmlElement('h2', { class: 'visually-hidden' }, heading, root);
  root.appendChild(figure);
  document.title = `${heading} · Attention Lab`;

  const state = createStore({
    search: prefixedSearch(figureName, params),
    writeSearch: debounce((search) => {
      const own = new URLSearchParams([['figure', figureName], ...unprefixedPairs(figureName, search)]);
      history.replaceState(history.state, '', `${location.pathname}?${own}`);
    }, URL_WRITE_DELAY_MS),
    onNotice: showNotice,
  });

  try {
    const lab = await labReady;
    FIGURES[figureName].mount(figure, { lab, state });
    const unknown = state.unknownParams().map((param) => param.slice(figureName.length + 1).slice(0, 40));
    if (unknown.length) showNotice(`The link names settings this figure does not have (${unknown.slice(0, 5).join(', ')}); ignored.`);
    addFigureToolbar(figure, {
      figureName, state, embedBase: new URL('./', location.href), pageUrl: new URL('index.html', location.href),
    });
  } catch (error) {
    showProblem(`This figure could not be drawn: ${error.message}`);
    console.error(error);
  }
  reportHeight(figureName);
  document.documentElement.dataset.labReady = 'true';
}

start();
