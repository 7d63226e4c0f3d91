// The right-hand panel of the heads figure: every head of the h-way split as a thumbnail
// button that picks it, and the picked head drawn as large as the full-width one, with its
// numbers, a colour legend and a note on the row of "it". Built once and kept: the thumbnails
// of each split (h → their buttons), and the one large map, relabelled for each head. A step
// of the slider then builds nothing: at h = 8, eight new thumbnails and a new map cost more
// than everything else the step does.

import { interpolateViridis } from 'd3-scale-chromatic';
import { hexChannels } from '../../lib/charts/contrast.js';
import { createHeatmap } from '../../lib/charts/heatmap.js';
import { htmlElement, setText } from '../../lib/dom/elements.js';
import { formatWeight, quoteToken } from '../../lib/format/index.js';
import { isEvenRow, keysAtMax } from '../../lib/format/row-focus.js';

const JOBS_AT = 4; // the core names what each slice does at h = 4

/**
 * An n×n map of weights as a tiny picture, one pixel per cell, for a CSS background (set
 * through the CSSOM, which a strict CSP allows; img-src allows data: URLs). Made once per head
 * of a split, it is then one bitmap to paint per thumbnail: the gradients it replaced (one
 * layer of n hard stops per row) cost about 0.08 ms of paint per thumbnail at every step that
 * showed them.
 */
function miniatureUrl(weights, n) {
  const canvas = document.createElement('canvas');
  canvas.width = n;
  canvas.height = n;
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(n, n);
  for (let cell = 0; cell < n * n; cell += 1) {
    const colour = hexChannels(interpolateViridis(Math.min(1, Math.max(0, weights[cell]))));
    pixels.data.set([...colour, 255], cell * 4);
  }
  context.putImageData(pixels, 0, 0);
  return `url("${canvas.toDataURL('image/png')}")`;
}

/**
 * @param {HTMLElement} panels  where the panel goes
 * @param {object} options  sentence (the toy sentence), row (the row to highlight, "it"),
 *   steadySplit (a split of fewer heads fills the rest of this many thumbnails' room with
 *   spacers, so that stepping h through 2, 4 and 8 wraps them into the same rows at every width
 *   and moves nothing below: a step that moved the lesson painted all of it again, 5.7 against
 *   4.0 ms of work per press of h = 4 ↔ 8 at 375 px, where eight thumbnails take two rows),
 *   onPick(s) (a thumbnail pressed), onSplit(h) (a new split shown, e.g. to offer its heads)
 * @returns {{ show(h: number, picked: number, result: object, rowStats: Function): void }}  rowStats:
 *   the core's row statistics of a matrix (lab.rowStats)
 */
export function createSlicesPanel(panels, { sentence, row, steadySplit, onPick, onSplit }) {
  const { tokens, n, tokenNames, jobs } = sentence;
  const width = sentence.WQ.cols;
  const panel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  const sliceTitle = htmlElement('p', { class: 'panel-title' }, null, panel);
  const thumbnails = htmlElement('div', { class: 'heads-thumbnails', role: 'group', 'aria-label': 'pick a head to draw large' }, null, panel);
  const focusTitle = htmlElement('p', { class: 'heads-slice-title heads-focus-title' }, null, panel);
  const sliceGrid = htmlElement('div', { class: 'heads-focus' }, null, panel);
  const focusMap = createHeatmap(sliceGrid, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames, legend: 'weight',
    rowTitle: 'query', colTitle: 'key', label: 'one head: weights, queries by keys',
  });
  const focusNote = htmlElement('p', { class: 'heads-note' }, null, sliceGrid);
  const singleNote = htmlElement('p', { class: 'heads-note' },
    'With h = 1 there is nothing to split: the only head is the full-width head on the left.', sliceGrid);

  const thumbSets = new Map();
  const spacers = Array.from({ length: steadySplit - 1 }, () => makeSpacer());
  let thumbButtons = []; // { button, context, drawn } per head of the split shown
  let shownH = null;
  let focusedHead = null; // which head of which split the large map shows, as "s/h"

  const columnsOf = (s, h) => `columns ${s * (width / h)}\u2013${(s + 1) * (width / h) - 1}`;
  const jobOf = (s, h) => (h === JOBS_AT ? jobs[s] : null);

  /** One button per head of an h-way split, each with a miniature of its map. */
  function makeThumbnails(h) {
    const set = [];
    for (let s = 0; s < h && h > 1; s += 1) {
      const job = jobOf(s, h);
      const button = htmlElement('button', {
        type: 'button', class: 'heads-thumbnail', 'aria-pressed': 'false',
        'aria-label': `head ${s}, ${columnsOf(s, h)}${job ? `, ${job}` : ''}`,
      });
      // A miniature of the head's map: colours only, for finding the head worth a closer look.
      // Painted as the element's own background picture (miniatureUrl): n² SVG rects each
      // weighed on style, layout and paint at every step, and a canvas per head made every
      // step that shows a split commit each canvas again (about 0.15 ms apiece).
      const mini = htmlElement('span', { class: 'heads-thumbnail-map', 'aria-hidden': 'true' }, null, button);
      htmlElement('span', { class: 'heads-thumbnail-name', 'aria-hidden': 'true' }, `head ${s}`, button);
      button.addEventListener('click', () => onPick(s));
      set.push({ button, mini, drawn: false });
    }
    return set;
  }

  /** An empty box the size of a thumbnail (the same parts, unseen and unread), to keep room. */
  function makeSpacer() {
    const spacer = htmlElement('span', { class: 'heads-thumbnail heads-thumbnail-spacer', 'aria-hidden': 'true' });
    htmlElement('span', { class: 'heads-thumbnail-map' }, null, spacer);
    htmlElement('span', { class: 'heads-thumbnail-name' }, `head ${steadySplit - 1}`, spacer);
    return spacer;
  }

  /** Shows the thumbnails of an h-way split (made the first time), with spacers up to steadySplit. */
  function showSplit(h) {
    if (!thumbSets.has(h)) thumbSets.set(h, makeThumbnails(h));
    thumbButtons = thumbSets.get(h);
    thumbnails.replaceChildren(...thumbButtons.map((thumb) => thumb.button), ...spacers.slice(0, Math.max(0, steadySplit - h)));
    thumbnails.hidden = h === 1;
    onSplit(h);
  }

  /** Points the large map at head `s` of `h`: its title, its name, and the note on "it". */
  function showFocus(s, h) {
    focusTitle.replaceChildren();
    focusTitle.hidden = h === 1;
    // Hidden rather than taken out, so that the map keeps its fitted layout for the next split.
    focusMap.element.hidden = h === 1;
    focusNote.hidden = h === 1;
    singleNote.hidden = h !== 1;
    if (h === 1) return;
    const job = jobOf(s, h);
    htmlElement('span', { class: 'heads-slice-name' }, `head ${s} of ${h}`, focusTitle);
    focusTitle.append(' \u00b7 ');
    htmlElement('span', { class: 'heads-slice-columns' }, columnsOf(s, h), focusTitle);
    if (job) htmlElement('span', { class: 'heads-slice-job' }, job, focusTitle);
    focusMap.setLabel(`head ${s} of ${h}, ${columnsOf(s, h)}${job ? `, ${job}` : ''}: weights, queries by keys`);
  }

  /** Marks the picked thumbnail; draws each thumbnail once (a split's heads never change). */
  function drawThumbnails(heads, picked) {
    heads.forEach((head, s) => {
      const thumb = thumbButtons[s];
      if (!thumb) return;
      thumb.button.setAttribute('aria-pressed', String(s === picked));
      if (!thumb.drawn) {
        thumb.mini.style.backgroundImage = miniatureUrl(head.weights.data, n);
        thumb.drawn = true;
      }
    });
  }

  /** The large map and its note for the picked head. */
  function drawFocus(head, stats) {
    focusMap.update(head.weights);
    focusMap.highlightRow(row);
    const most = stats.max[row];
    setText(focusNote, isEvenRow(head.weights, row)
      ? `${quoteToken(tokens[row])}: ${formatWeight(most)} on every key`
      : `${quoteToken(tokens[row])}: most on ${keysAtMax(head.weights, row, most).map((j) => quoteToken(tokens[j])).join(' and ')}, ${formatWeight(most)}`);
  }

  return {
    show(h, picked, result, rowStats) {
      if (h !== shownH) {
        showSplit(h);
        shownH = h;
      }
      if (`${picked}/${h}` !== focusedHead) {
        showFocus(picked, h);
        focusedHead = `${picked}/${h}`;
      }
      setText(sliceTitle, h === 1
        ? 'The slices: h = 1'
        : `The ${h} slices, each d\u2096 = ${width / h} columns wide. Pick one to draw it large.`);
      drawThumbnails(result.heads, picked);
      if (h > 1) drawFocus(result.heads[picked], rowStats(result.heads[picked].weights));
    },
  };
}
