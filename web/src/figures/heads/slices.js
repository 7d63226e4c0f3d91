// The right-hand panel of the heads figure: every head of the h-way split as a thumbnail
// button that picks it, and the picked head drawn as large as the full-width one, with its
// numbers, a colour legend and a note on the row of "it". Built once and kept: one thumbnail
// button per head number (button s shows head s of whatever split is shown, its miniature
// made once per split), and the one large map, relabelled for each head. A step of the slider
// then builds, inserts and lays out nothing: it changes pictures, names and visibility.

import { interpolateViridis } from 'd3-scale-chromatic';
import { hexChannels } from '../../lib/charts/contrast.js';
import { createHeatmap } from '../../lib/charts/heatmap.js';
import { htmlElement, setAttributes, setHidden, setText } from '../../lib/dom/elements.js';
import { formatWeight, quoteToken } from '../../lib/format/index.js';
import { isEvenRow, keysAtMax } from '../../lib/format/row-focus.js';

const JOBS_AT = 4; // the core names what each slice does at h = 4
const FOCUS_RECALL = 4; // heads whose large drawings are kept (a few MB each at a phone's pixel ratio)

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
  const panel = htmlElement('div', { class: 'figure-panel skips-off-screen' }, null, panels);
  const sliceTitle = htmlElement('p', { class: 'panel-title' }, null, panel);
  const thumbnails = htmlElement('div', { class: 'heads-thumbnails', role: 'group', 'aria-label': 'pick a head to draw large' }, null, panel);
  const focusTitle = htmlElement('p', { class: 'heads-slice-title heads-focus-title' }, null, panel);
  const focusName = htmlElement('span', { class: 'heads-slice-name' }, null, focusTitle);
  focusTitle.append(' \u00b7 ');
  const focusColumns = htmlElement('span', { class: 'heads-slice-columns' }, null, focusTitle);
  const focusJob = htmlElement('span', { class: 'heads-slice-job' }, null, focusTitle);
  const sliceGrid = htmlElement('div', { class: 'heads-focus' }, null, panel);
  const focusMap = createHeatmap(sliceGrid, {
    rowLabels: tokens, colLabels: tokens, rowNames: tokenNames, colNames: tokenNames, legend: 'weight',
    rowTitle: 'query', colTitle: 'key', label: 'one head: weights, queries by keys',
    // The layer's results are kept per h (index.js): stepping back and forth between splits
    // shows the same matrices again, each put back as one bitmap copy.
    recall: FOCUS_RECALL,
  });
  const focusNote = htmlElement('p', { class: 'heads-note' }, null, sliceGrid);
  const singleNote = htmlElement('p', { class: 'heads-note' },
    'With h = 1 there is nothing to split: the only head is the full-width head on the left.', sliceGrid);

  const slots = []; // { button, mini, showing } per head number, made when a split first needs it
  const miniatures = new Map(); // `${h}/${s}` → the miniature's CSS url(), made once
  let shownH = null;
  let focusedHead = null; // which head of which split the large map shows, as "s/h"

  const columnsOf = (s, h) => `columns ${s * (width / h)}\u2013${(s + 1) * (width / h) - 1}`;
  const jobOf = (s, h) => (h === JOBS_AT ? jobs[s] : null);
  // Which columns head s of h reads, and its job where it has one: in its thumbnail's name
  // and in the large map's.
  const columnsAndJob = (s, h) => `${columnsOf(s, h)}${jobOf(s, h) ? `, ${jobOf(s, h)}` : ''}`;

  /** The thumbnail button for head number s (of any split), made the first time. */
  function slotFor(s) {
    while (slots.length <= s) {
      const number = slots.length;
      const button = htmlElement('button', { type: 'button', class: 'heads-thumbnail', 'aria-pressed': 'false' }, null, thumbnails);
      // A miniature of the head's map: colours only, for finding the head worth a closer look.
      // Painted as the element's own background picture (miniatureUrl): n² SVG rects each
      // weighed on style, layout and paint at every step, and a canvas per head made every
      // step that shows a split commit each canvas again (about 0.15 ms apiece).
      const mini = htmlElement('span', { class: 'heads-thumbnail-map', 'aria-hidden': 'true' }, null, button);
      htmlElement('span', { class: 'heads-thumbnail-name', 'aria-hidden': 'true' }, `head ${number}`, button);
      button.addEventListener('click', () => onPick(number));
      slots.push({ button, mini, showing: null }); // showing: the miniature's key, `${h}/${s}`
    }
    return slots[s];
  }

  /**
   * Shows the thumbnails of an h-way split: buttons 0…h−1 named for it; below steadySplit, the
   * buttons after them stay as unseen, unread, unclickable spacers that keep the room of
   * steadySplit thumbnails (heads.css); any further buttons are hidden.
   */
  function showSplit(h) {
    const kept = h === 1 ? 0 : Math.max(h, steadySplit);
    for (let s = 0; s < Math.max(kept, slots.length); s += 1) {
      const { button } = slotFor(s);
      const spacer = s >= h;
      setHidden(button, s >= kept);
      button.classList.toggle('heads-thumbnail-spacer', spacer);
      if (spacer) {
        setAttributes(button, { 'aria-hidden': 'true', 'aria-pressed': 'false' });
        button.removeAttribute('aria-label');
        continue;
      }
      button.removeAttribute('aria-hidden');
      setAttributes(button, { 'aria-label': `head ${s}, ${columnsAndJob(s, h)}` });
    }
    setHidden(thumbnails, h === 1);
    onSplit(h);
  }

  /** Points the large map at head `s` of `h`: its title, its name, and the note on "it". */
  function showFocus(s, h) {
    setHidden(focusTitle, h === 1);
    // Hidden rather than taken out, so that the map keeps its fitted layout for the next split.
    setHidden(focusMap.element, h === 1);
    setHidden(focusNote, h === 1);
    setHidden(singleNote, h !== 1);
    if (h === 1) return;
    const job = jobOf(s, h);
    setText(focusName, `head ${s} of ${h}`);
    setText(focusColumns, columnsOf(s, h));
    setText(focusJob, job ?? ''); // empty, the block takes no room and reads as nothing
    focusMap.setLabel(`head ${s} of ${h}, ${columnsAndJob(s, h)}: weights, queries by keys`);
  }

  /** Marks the picked thumbnail and shows each head's miniature (made once: a split's heads never change). */
  function drawThumbnails(heads, picked, h) {
    if (h === 1) return;
    heads.forEach((head, s) => {
      const slot = slotFor(s);
      setAttributes(slot.button, { 'aria-pressed': String(s === picked) });
      const key = `${h}/${s}`;
      if (slot.showing === key) return;
      if (!miniatures.has(key)) miniatures.set(key, miniatureUrl(head.weights.data, n));
      slot.mini.style.backgroundImage = miniatures.get(key);
      slot.showing = key;
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
      drawThumbnails(result.heads, picked, h);
      if (h > 1) drawFocus(result.heads[picked], rowStats(result.heads[picked].weights));
    },
  };
}
