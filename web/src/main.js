// Entry point of the page: starts the WebAssembly core, creates the shared state store
// (synchronised with the URL) and mounts each figure into the element that names it with
// data-figure. Figures are independent: one failing leaves the others working.

import { labReady } from './core.js';
import { createStore } from './lib/state.js';
import * as temperature from './figures/temperature.js';
import * as heads from './figures/heads.js';
import * as map from './figures/map.js';
import * as mistakes from './figures/mistakes.js';
import * as whyScale from './figures/why-scale.js';
import * as cost from './figures/cost.js';
import * as lookup from './figures/lookup.js';
import * as allAtOnce from './figures/all-at-once.js';
import * as roles from './figures/roles.js';

const FIGURES = { temperature, 'why-scale': whyScale, cost, heads, map, mistakes, lookup, 'all-at-once': allAtOnce, roles };
const URL_WRITE_DELAY_MS = 250; // browsers throttle history updates made on every slider tick

const noticeList = document.getElementById('notices');

function showNotice(message) {
  const item = document.createElement('li');
  item.textContent = message;
  noticeList.appendChild(item);
  noticeList.hidden = false;
}

function debounce(action, delay) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), delay);
  };
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

  for (const figure of figures) {
    const name = figure.dataset.figure;
    try {
      if (!FIGURES[name]) throw new Error(`no figure module named "${name}"`);
      FIGURES[name].mount(figure, { lab, state });
      figure.querySelector('.figure-status')?.remove();
    } catch (error) {
      setStatus(figure, `This figure could not be drawn: ${error.message}`, true);
      console.error(error);
    }
  }
  // A hook for tests and screenshots: every figure has had its chance to mount.
  document.documentElement.dataset.labReady = 'true';
}

start();
