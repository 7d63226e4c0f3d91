// One query's attention drawn as lines: the sentence written twice, queries on the left and
// keys on the right, with a line from the picked query to every key whose width and opacity
// follow its weight (the picture BertViz made familiar). Drawn in CSS px for the width it gets
// (see fit.js), so the words keep their size on a phone.
//
// The words are SVG text; the lines are painted on a canvas under them. As SVG lines, each
// step's new widths and opacities restyled, laid out and painted eight shapes (about 0.2-0.6 ms
// of a τ step); on the canvas a step is one small bitmap drawn again. The lines' colour is the
// theme's bar colour, read off a hidden sample whose colour change (a new theme, forced colours)
// runs a 1 ms transition that tells the canvas to draw again.
// Off screen the lines wait (on-screen.js): on a phone they sit far under the τ slider that
// redraws them, and a step drew them unseen for about 0.6 of its 5.5 ms of work. The SVG's
// name, which is all a screen reader gets from the chart, does not change with the weights.

import { htmlElement, svgElement, setText } from '../dom/elements.js';
import { DEFAULT_REM, fitChart } from './fit.js';
import { drawWhenOnScreen } from './on-screen.js';

/** Canvas lines from (x1, y1) to (x2, y2), crisp at the screen's pixel ratio, in the sample's colour. */
function createLinePainter(frame, before) {
  const canvas = htmlElement('canvas', { class: 'attention-lines-canvas', 'aria-hidden': 'true' });
  frame.insertBefore(canvas, before);
  const ink = htmlElement('span', { class: 'attention-lines-ink', 'aria-hidden': 'true' }, null, frame);
  let colour = null;
  let size = null; // { width, height } in CSS px
  let scene = [];
  let context = null;

  function paint() {
    if (!size) return;
    colour ??= getComputedStyle(ink).color;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(size.width * ratio));
    const height = Math.max(1, Math.round(size.height * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width; // clears the bitmap and the context's state
      canvas.height = height;
    }
    context ??= canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, size.width, size.height);
    context.strokeStyle = colour;
    context.lineCap = 'round';
    for (const line of scene) {
      context.globalAlpha = line.opacity;
      context.lineWidth = line.width;
      context.beginPath();
      context.moveTo(line.x1, line.y1);
      context.lineTo(line.x2, line.y2);
      context.stroke();
    }
    context.globalAlpha = 1;
    // What is drawn, for a reader of the page's objects (the tests): the canvas says nothing
    // to assistive technology, the SVG's name says what the lines mean.
    canvas.drawnLines = scene;
  }

  // A new theme changes the sample's colour, which runs its transition: draw again once it ends.
  ink.addEventListener('transitionend', () => {
    colour = null;
    paint();
  });

  return {
    /**
     * The drawing's size in CSS px, for the next draw() (a new layout moves every line, so one
     * follows); the colour is read again then (the chart may have been hidden).
     */
    resize(width, height) {
      size = { width, height };
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      colour = null;
    },
    /** Draws `lines`: [{ x1, y1, x2, y2, width, opacity }]. */
    draw(lines) {
      scene = lines;
      paint();
    },
  };
}

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
  const screen = drawWhenOnScreen(frame);
  const svg = svgElement('svg', { class: 'attention-lines', role: 'img', 'aria-label': label }, frame);
  const painter = createLinePainter(frame, svg);
  const word = (text, anchor) => {
    const node = svgElement('text', { class: 'attention-word', 'text-anchor': anchor, 'dominant-baseline': 'middle' }, svg);
    setText(node, text);
    return node;
  };
  const queryWords = labels.map((text) => word(text, 'end'));
  const keyWords = labels.map((text) => word(text, 'start'));

  let row = 26;
  let y = (i) => 4 + row * (i + 0.5);
  let ends = { left: 0, right: 0 }; // where the lines start and end, in x
  let shown = { picked: null, top: null };
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
    ends = { left: leftEdge, right: rightEdge };
    queryWords.forEach((node, i) => { node.setAttribute('x', leftEdge - GAP); node.setAttribute('y', y(i)); });
    keyWords.forEach((node, j) => { node.setAttribute('x', rightEdge + GAP); node.setAttribute('y', y(j)); });
    painter.resize(total, height);
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
      if (lastUpdate) screen.draw(() => draw(...lastUpdate));
    },
  });
  layOut(start.width, estimate(start.rem));

  function draw(weights, query) {
    let top = 0;
    for (let j = 1; j < n; j += 1) if (weights[j] > weights[top]) top = j;
    painter.draw(Array.from(weights, (weight, j) => ({
      x1: ends.left, y1: y(query), x2: ends.right, y2: y(j),
      width: Math.max(0.5, MAX_STROKE * weight), opacity: 0.15 + 0.85 * weight,
    })));
    if (shown.picked !== query) {
      if (shown.picked !== null) queryWords[shown.picked].classList.remove('attention-word-picked');
      queryWords[query].classList.add('attention-word-picked');
    }
    if (shown.top !== top) {
      if (shown.top !== null) keyWords[shown.top].classList.remove('attention-word-picked');
      keyWords[top].classList.add('attention-word-picked');
    }
    shown = { picked: query, top };
  }

  return {
    update(weights, query) {
      const update = [Array.from(weights), query];
      lastUpdate = update;
      screen.draw(() => draw(...update));
    },
  };
}
