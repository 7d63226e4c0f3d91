// One query's attention drawn as lines: the sentence written twice, queries on the left and
// keys on the right, with a line from the picked query to every key whose width and opacity
// follow its weight (the picture BertViz made familiar). update() restyles the same lines,
// so dragging a slider never rebuilds the drawing.

import { svgElement } from '../dom/elements.js';

const ROW = 26;        // vertical step between tokens, in viewBox units
const WIDTH = 300;     // drawing width
const GAP = 16;        // space between a word and the end of its lines
const MAX_STROKE = 9;  // line width for a weight of 1

/**
 * @param {HTMLElement} container
 * @param {{ labels: string[], label: string }} options  labels: the tokens; label: accessible name
 * @returns {{ update(weights: ArrayLike<number>, query: number): void }}
 */
export function createAttentionLines(container, { labels, label }) {
  const n = labels.length;
  const height = n * ROW + 8;
  const svg = svgElement('svg', {
    class: 'attention-lines', viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': label,
  }, container);
  const y = (i) => 4 + ROW * (i + 0.5);
  const leftEdge = WIDTH * 0.32;
  const rightEdge = WIDTH * 0.68;

  const lines = labels.map((_, j) => svgElement('line', { class: 'attention-line', x1: leftEdge, x2: rightEdge, y2: y(j) }, svg));
  const queryWords = labels.map((text, i) => {
    const word = svgElement('text', { class: 'attention-word', x: leftEdge - GAP, y: y(i), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, svg);
    word.textContent = text;
    return word;
  });
  const keyWords = labels.map((text, j) => {
    const word = svgElement('text', { class: 'attention-word', x: rightEdge + GAP, y: y(j), 'text-anchor': 'start', 'dominant-baseline': 'middle' }, svg);
    word.textContent = text;
    return word;
  });

  return {
    update(weights, query) {
      let top = 0;
      for (let j = 1; j < n; j += 1) if (weights[j] > weights[top]) top = j;
      lines.forEach((line, j) => {
        line.setAttribute('y1', y(query));
        line.setAttribute('stroke-width', Math.max(0.5, MAX_STROKE * weights[j]).toFixed(2));
        line.setAttribute('stroke-opacity', (0.15 + 0.85 * weights[j]).toFixed(3));
      });
      queryWords.forEach((word, i) => word.classList.toggle('attention-word-picked', i === query));
      keyWords.forEach((word, j) => word.classList.toggle('attention-word-picked', j === top));
    },
  };
}
