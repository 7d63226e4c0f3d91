// One query's attention drawn as lines: the sentence written twice, queries on the left and
// keys on the right, with a line from the picked query to every key whose width and opacity
// follow its weight (the picture BertViz made familiar). update() restyles the same lines,
// writing only what changed, so dragging a slider never rebuilds the drawing. Drawn in CSS px
// for the width it gets (see fit.js), so the words keep their size on a phone.

import { htmlElement, svgElement, setText } from '../dom/elements.js';
import { DEFAULT_REM, fitChart } from './fit.js';

const MAX_WIDTH_REM = 22;
const GAP = 16;        // space between a word and the end of its lines
const MAX_STROKE = 9;  // line width for a weight of 1
const CHAR_EM = 0.62;  // a generous character width, as a share of the font size

/**
 * @param {HTMLElement} container
 * @param {{ labels: string[], label: string }} options  labels: the tokens; label: accessible name
 * @returns {{ update(weights: ArrayLike<number>, query: number): void }}
 */
export function createAttentionLines(container, { labels, label }) {
  const n = labels.length;
  const frame = htmlElement('div', { class: 'attention-lines-frame' }, null, container);
  const svg = svgElement('svg', { class: 'attention-lines', role: 'img', 'aria-label': label }, frame);
  const lines = labels.map(() => svgElement('line', { class: 'attention-line' }, svg));
  const word = (text, anchor) => {
    const node = svgElement('text', { class: 'attention-word', 'text-anchor': anchor, 'dominant-baseline': 'middle' }, svg);
    setText(node, text);
    return node;
  };
  const queryWords = labels.map((text) => word(text, 'end'));
  const keyWords = labels.map((text) => word(text, 'start'));

  let row = 26;
  let y = (i) => 4 + row * (i + 0.5);
  let shown = { query: null, weights: [], picked: null, top: null };
  let lastUpdate = null;

  function layOut(width, { font, wordWidth, rem }) {
    const drawn = Math.min(width, MAX_WIDTH_REM * rem);
    row = Math.max(26, Math.round(font * 2));
    y = (i) => 4 + row * (i + 0.5);
    const leftEdge = Math.max(drawn * 0.32, wordWidth + GAP + 4);
    const rightEdge = Math.max(leftEdge + 40, Math.min(drawn * 0.68, drawn - wordWidth - GAP - 4));
    const total = Math.ceil(rightEdge + GAP + wordWidth + 4);
    const height = n * row + 8;
    svg.setAttribute('viewBox', `0 0 ${total} ${height}`);
    svg.setAttribute('width', total);
    svg.setAttribute('height', height);
    lines.forEach((line, j) => {
      line.setAttribute('x1', leftEdge);
      line.setAttribute('x2', rightEdge);
      line.setAttribute('y2', y(j));
    });
    queryWords.forEach((node, i) => { node.setAttribute('x', leftEdge - GAP); node.setAttribute('y', y(i)); });
    keyWords.forEach((node, j) => { node.setAttribute('x', rightEdge + GAP); node.setAttribute('y', y(j)); });
    shown = { query: null, weights: [], picked: shown.picked, top: shown.top }; // the lines' y1 must be set again
  }

  const estimate = (rem) => ({ rem, font: (13 / 16) * rem, wordWidth: Math.max(...labels.map((s) => s.length)) * CHAR_EM * (13 / 16) * rem });
  const start = fitChart(frame, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    measure: ({ width, rem }) => ({
      width,
      text: {
        rem,
        font: parseFloat(getComputedStyle(queryWords[0]).fontSize) || estimate(rem).font,
        wordWidth: Math.max(...queryWords.map((node) => node.getComputedTextLength())),
      },
    }),
    apply: ({ width, text }) => {
      layOut(width, text);
      if (lastUpdate) draw(...lastUpdate);
    },
  });
  layOut(start.width, estimate(start.rem));

  function draw(weights, query) {
    let top = 0;
    for (let j = 1; j < n; j += 1) if (weights[j] > weights[top]) top = j;
    lines.forEach((line, j) => {
      if (shown.query !== query) line.setAttribute('y1', y(query));
      if (shown.weights[j] !== weights[j]) {
        line.setAttribute('stroke-width', Math.max(0.5, MAX_STROKE * weights[j]).toFixed(2));
        line.setAttribute('stroke-opacity', (0.15 + 0.85 * weights[j]).toFixed(3));
      }
    });
    if (shown.picked !== query) {
      if (shown.picked !== null) queryWords[shown.picked].classList.remove('attention-word-picked');
      queryWords[query].classList.add('attention-word-picked');
    }
    if (shown.top !== top) {
      if (shown.top !== null) keyWords[shown.top].classList.remove('attention-word-picked');
      keyWords[top].classList.add('attention-word-picked');
    }
    shown = { query, weights: Array.from(weights), picked: query, top };
  }

  return {
    update(weights, query) {
      lastUpdate = [Array.from(weights), query];
      draw(weights, query);
    },
  };
}
