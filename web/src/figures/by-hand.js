// Figure "One query by hand": the lesson's 2-D worked example, with every vector movable.
//
// A query q, three keys and three values are arrows on two small planes. The learner drags
// an arrow tip, types its components, or moves a focused tip with the arrow keys. A stepper
// walks the four steps (dot products, scale by √d_k, softmax, weighted sum); at each step the
// learner may type a prediction and press Check, which compares it with the core's number.
// Beside it, a short C++ function for one query (cpp/teaching/attend_one.hpp, bundled as
// text) has the lines of the current step highlighted. Presets load the lesson's cases: the
// query [1, 0], the sharper query [4, 0] and every token as a query (the full 3 × 3 table).
// Finally the dot-product score is set beside Bahdanau's additive score, computed by the
// core from fixed teaching matrices, to show that only the scoring line differs.
//
// Every number shown is computed by the WebAssembly core (lab.attention, lab.softmax,
// lab.additiveScores, lab.matmul) on each change; this module only formats and compares.

import attendOneHeader from '../../../cpp/teaching/attend_one.hpp';
import { matrix, row } from '#attention-lab';
import { formatFixed, formatSignificant } from '../lib/format/index.js';
import { createHeatmap } from '../lib/charts/heatmap.js';
import { scrollableWhenOverflowing } from '../lib/dom/scroll-region.js';
import { htmlElement, svgElement, uniqueId } from '../lib/dom/elements.js';
import { registerMatrix } from '../lib/export/registry.js';

const NAME = 'by-hand';
const MIN = -4; // smallest component a vector may have
const MAX = 4; // largest component
const PLANE = 240; // side of a plane's drawing area, in viewBox units
const PAD = 16; // room around it for labels
const WINDOW_LOW = -1; // the planes always show at least [-1, 2] × [-1, 2], …
const WINDOW_HIGH = 2; // … and grow (between drags) to fit every vector with half a unit to spare
const DRAG_SNAP = 0.1; // dragged tips land on a 0.1 grid
const KEY_STEP = 0.1; // an arrow key moves a focused tip this far (Shift: KEY_STEP_LARGE)
const KEY_STEP_LARGE = 1;
const RIGHT_WITHIN = 0.01; // a prediction this close to the core's value is right
const CLOSE_WITHIN = 0.05; // … and this close is close

// The lesson's worked example: d_k = 2, three keys and three values.
const VECTORS = [
  { id: 'q', kind: 'query', defaults: [1, 0] },
  { id: 'k1', kind: 'key', index: 0, defaults: [1, 0] },
  { id: 'k2', kind: 'key', index: 1, defaults: [0, 1] },
  { id: 'k3', kind: 'key', index: 2, defaults: [1, 1] },
  { id: 'v1', kind: 'value', index: 0, defaults: [1, 0] },
  { id: 'v2', kind: 'value', index: 1, defaults: [0, 1] },
  { id: 'v3', kind: 'value', index: 2, defaults: [0.5, 0.5] },
];
const KEY_IDS = ['k1', 'k2', 'k3'];
const VALUE_IDS = ['v1', 'v2', 'v3'];

const PRESETS = [
  { label: 'q = [1, 0]', q: [1, 0], table: 0 },
  { label: 'sharper query q = [4, 0]', q: [4, 0], table: 0 },
  { label: 'every token as query', q: [1, 0], table: 1 },
];

// Fixed teaching matrices of an additive (Bahdanau) scorer with a hidden width of 2. In a real
// model they are learned; these are just small numbers, so which key wins means nothing here.
const ADDITIVE_W = [[1, 0.5], [-0.5, 1]];
const ADDITIVE_U = [[1, -0.5], [0.5, 1]];
const ADDITIVE_V = [[1, 1]];

const STEPS = [
  {
    title: 'Dot products',
    text: 'Multiply the query and each key component by component and add: one score per key. '
      + 'A key pointing the same way as the query scores high; a key at a right angle to it scores zero.',
    guesses: ['your q·k1', 'your q·k2', 'your q·k3'],
  },
  {
    title: 'Scale by \u221ad\u2096',
    text: 'Divide every score by the square root of the key width. Here d\u2096 = 2, so each score is divided by \u221a2.',
    guesses: ['your scaled score 1', 'your scaled score 2', 'your scaled score 3'],
  },
  {
    title: 'Softmax',
    text: 'Raise e to each scaled score, then divide by the total: the weights are positive and add up to one. '
      + 'Even a key that does not match at all keeps a little weight.',
    guesses: ['your weight 1', 'your weight 2', 'your weight 3'],
  },
  {
    title: 'Weighted sum',
    text: 'Multiply each value by its weight and add: the output is a blend of the values, '
      + 'pulled towards the values whose keys matched.',
    guesses: ['your output x', 'your output y'],
  },
];

const fmt = (value) => formatFixed(value, 3);
const fmtComponent = (value) => formatSignificant(value, 3);
const fmtVector = (values, format = fmt) => `[${Array.from(values, format).join(', ')}]`;
const clamp = (value) => Math.min(MAX, Math.max(MIN, value));

/** The function between the page-code markers of the header, as lines, each with its step (or 0). */
export function codeLines(header) {
  const all = header.split('\n');
  const begin = all.findIndex((line) => line.includes('// page-code-begin'));
  const end = all.findIndex((line) => line.includes('// page-code-end'));
  if (begin < 0 || end <= begin) throw new Error('attend_one.hpp has no page-code markers');
  let step = 0;
  return all.slice(begin + 1, end).map((text) => {
    const marker = /^\s*\/\/ (\d)\. /.exec(text);
    if (marker) step = Number(marker[1]);
    const blank = text.trim() === '';
    const closing = /^\}/.test(text); // the function's closing brace belongs to no step
    return { text, step: blank || closing ? 0 : step };
  });
}

/** Parses a typed number; accepts a decimal comma and a real minus sign. Null if unreadable. */
function parseNumber(text) {
  const cleaned = String(text).trim().replace(',', '.').replace('\u2212', '-');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** "Right", "Close" or "Wrong" for a guess against the core's value. */
export function judge(guess, truth) {
  const error = Math.abs(guess - truth);
  if (error <= RIGHT_WITHIN + 1e-12) return 'right';
  if (error <= CLOSE_WITHIN + 1e-12) return 'close';
  return 'wrong';
}

/**
 * The square window [low, high]² that both planes show: at least [-1, 2]², grown to hold
 * every vector with half a unit to spare, in whole units.
 */
function fitWindow(points) {
  let low = WINDOW_LOW;
  let high = WINDOW_HIGH;
  for (const [x, y] of points) {
    low = Math.min(low, Math.floor(Math.min(x, y) - 0.5));
    high = Math.max(high, Math.ceil(Math.max(x, y) + 0.5));
  }
  return { low: Math.max(low, MIN - 1), high: Math.min(high, MAX + 1) };
}

/** A plane with a grid, axes and layers for arrows; maps plane coordinates to the viewBox. */
function createPlane(parent, { label, title }) {
  const wrapper = htmlElement('div', { class: 'by-hand-plane' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, title, wrapper);
  const svg = svgElement('svg', {
    viewBox: `${-PAD} ${-PAD} ${PLANE + 2 * PAD} ${PLANE + 2 * PAD}`, role: 'group', 'aria-label': label,
    class: 'by-hand-plane-svg',
  }, wrapper);
  const grid = svgElement('g', { 'aria-hidden': 'true', class: 'by-hand-grid' }, svg);
  const arrows = svgElement('g', { 'aria-hidden': 'true' }, svg);
  const marks = svgElement('g', { 'aria-hidden': 'true' }, svg);
  const handles = svgElement('g', {}, svg);

  let window = { low: WINDOW_LOW, high: WINDOW_HIGH };
  let unit = PLANE / (window.high - window.low);
  const plane = {
    wrapper, svg, arrows, handles, marks,
    toX: (x) => (x - window.low) * unit,
    toY: (y) => (window.high - y) * unit,
    /** Plane coordinates of a pointer event, from the SVG's current screen transform. */
    fromClient(event) {
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      const local = point.matrixTransform(svg.getScreenCTM().inverse());
      return [local.x / unit + window.low, window.high - local.y / unit];
    },
    get window() {
      return window;
    },
    /** Redraws the grid for a new window (a no-op if it is unchanged). */
    setWindow(next) {
      if (grid.firstChild && next.low === window.low && next.high === window.high) return;
      window = next;
      unit = PLANE / (window.high - window.low);
      grid.replaceChildren();
      const { toX, toY } = plane;
      const every = window.high - window.low > 6 ? 2 : 1; // label every other line when zoomed out
      for (let t = window.low; t <= window.high; t += 1) {
        const cls = t === 0 ? 'by-hand-axis' : 'by-hand-gridline';
        svgElement('line', { x1: toX(t), y1: toY(window.low), x2: toX(t), y2: toY(window.high), class: cls }, grid);
        svgElement('line', { x1: toX(window.low), y1: toY(t), x2: toX(window.high), y2: toY(t), class: cls }, grid);
        if (t !== 0 && t % every === 0) {
          svgElement('text', { x: toX(t), y: toY(0) + 13, 'text-anchor': 'middle', class: 'by-hand-tick' }, grid).textContent = fmtComponent(t);
          svgElement('text', { x: toX(0) - 5, y: toY(t) + 4, 'text-anchor': 'end', class: 'by-hand-tick' }, grid).textContent = fmtComponent(t);
        }
      }
    },
  };
  plane.setWindow(window);
  return plane;
}

/** An arrow from the origin with a head, a text label and a draggable, focusable tip. */
function createArrow(plane, { name, kind, onMove, onRelease }) {
  const cls = `by-hand-${kind}`;
  const line = svgElement('line', { class: `by-hand-shaft ${cls}`, 'stroke-width': 2.5 }, plane.arrows);
  const head = svgElement('polygon', { class: `by-hand-head ${cls}` }, plane.arrows);
  const text = svgElement('text', { class: `by-hand-label ${cls}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, plane.marks);
  text.textContent = name;
  const handle = svgElement('g', {
    class: `by-hand-handle ${cls}`, tabindex: 0, role: 'slider', 'aria-label': `tip of ${name}`,
    'aria-roledescription': 'point you can drag or move with the arrow keys',
    'aria-valuemin': MIN, 'aria-valuemax': MAX,
  }, plane.handles);
  // While a tip is dragged the window stays put (so the tip stays under the pointer); the
  // planes refit when it is let go.
  let dragging = false;
  svgElement('circle', { r: 15, class: 'by-hand-handle-hit' }, handle);
  svgElement('circle', { r: 11, class: 'by-hand-handle-focus' }, handle);
  svgElement('circle', { r: 5, class: `by-hand-handle-dot ${cls}` }, handle);

  let current = [0, 0];
  let labelAt = [0, 0, 0]; // where the name label sits, and which way the arrow points (for extra text)
  handle.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    handle.focus({ preventScroll: true });
    handle.classList.add('by-hand-dragging');
    dragging = true;
  });
  handle.addEventListener('pointermove', (event) => {
    if (!handle.hasPointerCapture(event.pointerId)) return;
    const { low, high } = plane.window;
    const snap = (v) => clamp(Math.min(high, Math.max(low, Math.round(v / DRAG_SNAP) * DRAG_SNAP)));
    const [x, y] = plane.fromClient(event);
    const next = [Number(snap(x).toFixed(1)), Number(snap(y).toFixed(1))];
    if (next[0] !== current[0] || next[1] !== current[1]) onMove(next);
  });
  const release = (event) => {
    if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
    handle.classList.remove('by-hand-dragging');
    if (dragging) {
      dragging = false;
      onRelease();
    }
  };
  handle.addEventListener('pointerup', release);
  handle.addEventListener('pointercancel', release);
  handle.addEventListener('keydown', (event) => {
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    // Round to hundredths so that repeated steps do not pile up floating-point dust.
    onMove(current.map((v, i) => clamp(Math.round((v + move[i]) * 100) / 100)));
  });

  return {
    get dragging() {
      return dragging;
    },
    set([x, y]) {
      current = [x, y];
      line.setAttribute('x1', plane.toX(0));
      line.setAttribute('y1', plane.toY(0));
      const tipX = plane.toX(x);
      const tipY = plane.toY(y);
      line.setAttribute('x2', tipX);
      line.setAttribute('y2', tipY);
      const dx = tipX - plane.toX(0);
      const dy = tipY - plane.toY(0);
      const length = Math.hypot(dx, dy);
      if (length > 1e-9) {
        const ux = dx / length;
        const uy = dy / length;
        const back = Math.min(10, length);
        const baseX = tipX - ux * back;
        const baseY = tipY - uy * back;
        head.setAttribute('points', `${tipX},${tipY} ${baseX - uy * 5},${baseY + ux * 5} ${baseX + uy * 5},${baseY - ux * 5}`);
        head.removeAttribute('visibility');
      } else {
        head.setAttribute('visibility', 'hidden');
      }
      // The label sits beyond the tip (queries to the side, so they clear a key at the same place).
      const [ox, oy] = length > 1e-9 ? [dx / length, dy / length] : [0.7, -0.7];
      const [lx, ly] = kind === 'query' ? [-oy * 16, ox * 16] : [ox * 16, oy * 16];
      text.setAttribute('x', tipX + lx);
      text.setAttribute('y', tipY + ly);
      labelAt = [tipX + lx, tipY + ly, oy];
      handle.setAttribute('transform', `translate(${tipX} ${tipY})`);
      handle.setAttribute('aria-valuenow', x);
      handle.setAttribute('aria-valuetext', `${name} = ${fmtVector([x, y], fmtComponent)}`);
    },
    setWidth(width) {
      line.setAttribute('stroke-width', width);
    },
    /** Where a second line of text can go next to the name label without covering the arrow. */
    noteAt() {
      const [x, y, pointsDown] = labelAt;
      return [x, pointsDown > 0 ? y + 13 : y - 13];
    },
  };
}

export function mount(element, { lab, state }) {
  const key = (id, axis) => `${NAME}.${id}${axis}`;
  for (const vector of VECTORS) {
    vector.defaults.forEach((value, axis) => {
      state.define(key(vector.id, 'xy'[axis]), { type: 'number', min: MIN, max: MAX, default: value });
    });
  }
  state.define(`${NAME}.step`, { type: 'integer', min: 1, max: STEPS.length, default: 1 });
  state.define(`${NAME}.table`, { type: 'integer', min: 0, max: 1, default: 0 });
  state.define(`${NAME}.hide`, { type: 'integer', min: 0, max: 1, default: 0 });

  const getVector = (id) => [state.get(key(id, 'x')), state.get(key(id, 'y'))];
  let muted = false; // while several keys change together, render once at the end
  function setMany(entries) {
    muted = true;
    try {
      for (const [k, v] of entries) state.set(k, v);
    } finally {
      muted = false;
    }
    onVectorsChanged();
    render();
  }
  const setVector = (id, [x, y]) => setMany([[key(id, 'x'), x], [key(id, 'y'), y]]);

  const body = htmlElement('div', { class: 'figure-body by-hand' });
  element.insertBefore(body, element.querySelector('figcaption'));

  // --- presets and the "cover" switch ----------------------------------------------------
  const controls = htmlElement('div', { class: 'figure-controls by-hand-controls' }, null, body);
  const presetGroup = htmlElement('div', { class: 'by-hand-presets', role: 'group', 'aria-label': 'presets' }, null, controls);
  htmlElement('span', { class: 'control-label' }, 'Load an example', presetGroup);
  const presetRow = htmlElement('div', { class: 'by-hand-button-row' }, null, presetGroup);
  for (const preset of PRESETS) {
    const button = htmlElement('button', { type: 'button', class: 'by-hand-button' }, preset.label, presetRow);
    button.addEventListener('click', () => {
      const entries = [];
      for (const vector of VECTORS) {
        const values = vector.id === 'q' ? preset.q : vector.defaults;
        entries.push([key(vector.id, 'x'), values[0]], [key(vector.id, 'y'), values[1]]);
      }
      entries.push([`${NAME}.table`, preset.table]);
      setMany(entries);
    });
  }
  const hideId = uniqueId('by-hand-hide');
  const hideLine = htmlElement('p', { class: 'by-hand-check' }, null, controls);
  const hideBox = htmlElement('input', { type: 'checkbox', id: hideId }, null, hideLine);
  htmlElement('label', { for: hideId }, 'Cover the numbers I have not checked yet', hideLine);
  hideBox.addEventListener('change', () => state.set(`${NAME}.hide`, hideBox.checked ? 1 : 0));

  // --- the planes and the typed components -----------------------------------------------
  const panels = htmlElement('div', { class: 'figure-panels by-hand-panels' }, null, body);
  const left = htmlElement('div', { class: 'figure-panel by-hand-vectors' }, null, panels);
  const planes = htmlElement('div', { class: 'by-hand-planes' }, null, left);
  const keyPlane = createPlane(planes, { title: 'Query and keys: they set the weights', label: 'query and keys' });
  const valuePlane = createPlane(planes, { title: 'Values and output: the blend', label: 'values and output' });

  const arrows = {};
  // Values first, then keys, then the query, so the query's tip is on top where tips meet.
  for (const id of [...VALUE_IDS, ...KEY_IDS, 'q']) {
    const vector = VECTORS.find((v) => v.id === id);
    const plane = vector.kind === 'value' ? valuePlane : keyPlane;
    arrows[id] = createArrow(plane, {
      name: id, kind: vector.kind, onMove: (xy) => setVector(id, xy), onRelease: () => render(),
    });
  }
  const outputDot = svgElement('circle', { r: 6.5, class: 'by-hand-output' }, valuePlane.marks);
  const outputLabel = svgElement('text', { class: 'by-hand-output-label', 'text-anchor': 'start' }, valuePlane.marks);
  const weightLabels = VALUE_IDS.map(() => svgElement('text', { class: 'by-hand-weight-label', 'text-anchor': 'middle' }, valuePlane.marks));

  htmlElement('p', { class: 'by-hand-fields-title' },
    `Drag a tip, focus it and press the arrow keys, or type its components (from ${fmtComponent(MIN)} to ${fmtComponent(MAX)}). Every vector has two components, so d\u2096 = 2.`, left);
  const fieldGrids = {
    query: htmlElement('div', { class: 'by-hand-field-grid' }, null, keyPlane.wrapper),
    value: htmlElement('div', { class: 'by-hand-field-grid' }, null, valuePlane.wrapper),
  };
  fieldGrids.key = fieldGrids.query;
  const fields = {};
  for (const vector of VECTORS) {
    const line = htmlElement('div', { class: `by-hand-field-row by-hand-${vector.kind}-row` }, null, fieldGrids[vector.kind]);
    htmlElement('span', { class: `by-hand-field-name by-hand-${vector.kind}`, 'aria-hidden': 'true' }, vector.id, line);
    for (const axis of ['x', 'y']) {
      const inputId = uniqueId('by-hand-field');
      // The label reads "q x" in full; the vector's name is shown once per row, so it is hidden here.
      const label = htmlElement('label', { for: inputId, class: 'by-hand-axis-label' }, null, line);
      htmlElement('span', { class: 'by-hand-sr' }, `${vector.id} `, label);
      label.append(axis);
      const input = htmlElement('input', {
        type: 'number', id: inputId, min: MIN, max: MAX, step: 0.1, inputmode: 'decimal', class: 'by-hand-number',
      }, null, line);
      const stateKey = key(vector.id, axis);
      input.addEventListener('input', () => {
        const value = parseNumber(input.value);
        if (value === null) return; // half-typed ("-", "0."): wait for more
        const clamped = clamp(value);
        if (clamped === state.get(stateKey)) return;
        muted = true;
        try {
          state.set(stateKey, clamped);
        } finally {
          muted = false;
        }
        onVectorsChanged();
        render();
      });
      input.addEventListener('change', () => {
        input.value = String(state.get(stateKey)); // show the clamped value, or undo an unreadable one
      });
      fields[stateKey] = input;
    }
  }

  // --- the stepper ---------------------------------------------------------------------------
  const right = htmlElement('div', { class: 'figure-panel by-hand-steps' }, null, panels);
  const stepNav = htmlElement('div', { class: 'by-hand-step-nav' }, null, right);
  const previous = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Previous step', stepNav);
  const stepCount = htmlElement('span', { class: 'by-hand-step-count', 'aria-live': 'polite' }, null, stepNav);
  const next = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Next step', stepNav);
  previous.addEventListener('click', () => state.set(`${NAME}.step`, state.get(`${NAME}.step`) - 1));
  next.addEventListener('click', () => state.set(`${NAME}.step`, state.get(`${NAME}.step`) + 1));

  const tabList = htmlElement('ol', { class: 'by-hand-tabs', role: 'tablist', 'aria-label': 'the four steps' }, null, right);
  const tabs = [];
  const stepPanels = [];
  STEPS.forEach((step, index) => {
    const tabId = uniqueId('by-hand-tab');
    const panelId = uniqueId('by-hand-panel');
    const item = htmlElement('li', { role: 'presentation' }, null, tabList);
    const tab = htmlElement('button', {
      type: 'button', role: 'tab', id: tabId, 'aria-controls': panelId, class: 'by-hand-tab',
    }, `${index + 1}. ${step.title}`, item);
    tab.addEventListener('click', () => state.set(`${NAME}.step`, index + 1));
    tab.addEventListener('keydown', (event) => {
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      let target = null;
      if (moves[event.key]) target = (index + moves[event.key] + STEPS.length) % STEPS.length;
      if (event.key === 'Home') target = 0;
      if (event.key === 'End') target = STEPS.length - 1;
      if (target === null) return;
      event.preventDefault();
      state.set(`${NAME}.step`, target + 1);
      tabs[target].focus();
    });
    tabs.push(tab);

    const panel = htmlElement('div', { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'by-hand-step-panel' }, null, right);
    htmlElement('p', { class: 'by-hand-step-text' }, step.text, panel);
    const working = htmlElement('ul', { class: 'by-hand-working', 'aria-label': `working of step ${index + 1}` }, null, panel);
    const form = htmlElement('form', { class: 'by-hand-predict', novalidate: '' }, null, panel);
    const fieldset = htmlElement('fieldset', {}, null, form);
    htmlElement('legend', {}, 'Predict, then check', fieldset);
    const guessInputs = step.guesses.map((label) => {
      const id = uniqueId('by-hand-guess');
      const line = htmlElement('p', { class: 'by-hand-guess' }, null, fieldset);
      htmlElement('label', { for: id }, label, line);
      return htmlElement('input', { type: 'text', id, inputmode: 'decimal', autocomplete: 'off', class: 'by-hand-guess-input' }, null, line);
    });
    const buttons = htmlElement('p', { class: 'by-hand-button-row' }, null, fieldset);
    htmlElement('button', { type: 'submit', class: 'by-hand-button by-hand-primary' }, 'Check', buttons);
    htmlElement('p', { class: 'by-hand-tolerance' },
      `Right means within \u00b1${RIGHT_WITHIN} of the core's value, close within \u00b1${CLOSE_WITHIN}.`, fieldset);
    const feedback = htmlElement('ul', { class: 'by-hand-feedback', 'aria-live': 'polite', 'aria-label': `feedback on step ${index + 1}` }, null, form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      check(index, guessInputs, feedback);
    });
    stepPanels.push({ panel, working, feedback, guessInputs });
  });

  // The running table: all four steps for the current query, the current one outlined.
  const tableWrap = htmlElement('div', { class: 'by-hand-table-wrap' }, null, right);
  const table = htmlElement('table', { class: 'by-hand-table' }, null, tableWrap);
  scrollableWhenOverflowing(tableWrap, 'table of the four steps, scrolls sideways');
  htmlElement('caption', {}, 'All four steps for the current query', table);
  const headRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  htmlElement('th', { scope: 'col' }, 'step', headRow);
  for (const id of KEY_IDS) htmlElement('th', { scope: 'col' }, `key ${id.slice(1)}`, headRow);
  const tbody = htmlElement('tbody', {}, null, table);
  const tableRows = ['dot products', 'scaled scores', 'weights', 'output'].map((label, index) => {
    const tr = htmlElement('tr', {}, null, tbody);
    htmlElement('th', { scope: 'row' }, `${index + 1} ${label}`, tr);
    const cells = index === 3
      ? [htmlElement('td', { colspan: 3, class: 'by-hand-num' }, null, tr)]
      : KEY_IDS.map(() => htmlElement('td', { class: 'by-hand-num' }, null, tr));
    return { tr, cells };
  });

  // --- the code ------------------------------------------------------------------------------
  const codeBox = htmlElement('div', { class: 'by-hand-code-box' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'The same four steps in C++ (cpp/teaching/attend_one.hpp)', codeBox);
  const pre = htmlElement('pre', { class: 'by-hand-code', tabindex: 0, 'aria-label': 'C++ function for one query' }, null, codeBox);
  const code = htmlElement('code', {}, null, pre);
  const lines = codeLines(attendOneHeader).map(({ text, step }) => {
    const span = htmlElement('span', { class: 'code-line', 'data-step': step }, `${text}\n`, code);
    return { span, step };
  });
  const codeNote = htmlElement('p', { class: 'by-hand-code-note' }, null, codeBox);

  // --- every token as a query ----------------------------------------------------------------
  const fullBox = htmlElement('div', { class: 'by-hand-full', hidden: '' }, null, body);
  const fullHead = htmlElement('div', { class: 'by-hand-full-head' }, null, fullBox);
  htmlElement('p', { class: 'panel-title' },
    'Every token as a query: Q = K = the three keys, V = the three values', fullHead);
  const closeFull = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Hide the table', fullHead);
  closeFull.addEventListener('click', () => state.set(`${NAME}.table`, 0));
  const fullPanels = htmlElement('div', { class: 'figure-panels' }, null, fullBox);
  const tokenLabels = ['token 1', 'token 2', 'token 3'];
  const fullMap = createHeatmap(htmlElement('div', { class: 'figure-panel' }, null, fullPanels), {
    rowLabels: tokenLabels, colLabels: tokenLabels, rowTitle: 'query', colTitle: 'key',
    label: 'weights of every token over every token', formatCell: (v) => formatFixed(v, 3),
  });
  const fullTableWrap = htmlElement('div', { class: 'figure-panel by-hand-table-wrap' }, null, fullPanels);
  const fullTable = htmlElement('table', { class: 'by-hand-table' }, null, fullTableWrap);
  scrollableWhenOverflowing(fullTableWrap, 'table of every token, scrolls sideways');
  htmlElement('caption', {}, 'Scaled scores and output of each token', fullTable);
  const fullHeadRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, fullTable));
  for (const label of ['query', 'scaled scores', 'output']) htmlElement('th', { scope: 'col' }, label, fullHeadRow);
  const fullBody = htmlElement('tbody', {}, null, fullTable);
  const fullRows = tokenLabels.map((label) => {
    const tr = htmlElement('tr', {}, null, fullBody);
    htmlElement('th', { scope: 'row' }, label, tr);
    return { scores: htmlElement('td', { class: 'by-hand-num' }, null, tr), output: htmlElement('td', { class: 'by-hand-num' }, null, tr) };
  });

  // --- additive versus dot product ------------------------------------------------------------
  const compare = htmlElement('div', { class: 'by-hand-compare' }, null, body);
  htmlElement('p', { class: 'panel-title' }, 'Dot-product and additive scoring, side by side: only the first line differs', compare);
  const compareGrid = htmlElement('div', { class: 'by-hand-compare-grid' }, null, compare);
  function compareColumn(title) {
    const column = htmlElement('div', { class: 'by-hand-compare-col', role: 'group', 'aria-label': title }, null, compareGrid);
    htmlElement('h3', { class: 'by-hand-compare-title' }, title, column);
    const list = htmlElement('ol', { class: 'by-hand-compare-lines' }, null, column);
    return ['score', 'weights', 'output'].map((name, index) => {
      const item = htmlElement('li', { class: index === 0 ? 'by-hand-differs' : 'by-hand-same' }, null, list);
      const formula = htmlElement('span', { class: 'by-hand-formula' }, null, item);
      const value = htmlElement('output', { class: 'by-hand-num', 'aria-label': `${title}: ${name}` }, null, item);
      return { item, formula, value };
    });
  }
  const dotLines = compareColumn('Dot product');
  const addLines = compareColumn('Additive (Bahdanau)');
  // Formulas as text with <sub> for indices: [text, [subscript], text, …].
  const setFormula = (span, parts) => {
    for (const part of parts) {
      if (Array.isArray(part)) htmlElement('sub', {}, part[0], span);
      else span.append(part);
    }
  };
  setFormula(dotLines[0].formula, ['e', ['j'], ' = q\u00b7k', ['j'], ' / \u221ad', ['k'], ' = ']);
  setFormula(addLines[0].formula, ['e', ['j'], ' = v\u1d40 tanh(W q + U k', ['j'], ') = ']);
  for (const column of [dotLines, addLines]) {
    setFormula(column[1].formula, ['a = softmax(e) = ']);
    setFormula(column[2].formula, ['o = \u03a3 a', ['j'], ' v', ['j'], ' = ']);
  }
  const hiddenLine = htmlElement('p', { class: 'by-hand-compare-note' }, null, compare);
  const wqText = htmlElement('output', { class: 'by-hand-num', 'aria-label': 'W q' }, null, hiddenLine);
  const constants = htmlElement('p', { class: 'by-hand-compare-note' }, null, compare);
  const showMatrix = (rows) => `[${rows.map((r) => fmtVector(r, fmtComponent)).join(', ')}]`;
  constants.textContent = `Teaching constants (a real model learns them): W = ${showMatrix(ADDITIVE_W)}, `
    + `U = ${showMatrix(ADDITIVE_U)}, v = ${fmtVector(ADDITIVE_V[0], fmtComponent)}.`;
  constants.dataset.w = JSON.stringify(ADDITIVE_W);
  constants.dataset.u = JSON.stringify(ADDITIVE_U);
  constants.dataset.v = JSON.stringify(ADDITIVE_V);
  constants.classList.add('by-hand-constants');

  const problem = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, body);

  // --- behaviour -------------------------------------------------------------------------------
  const revealed = new Set(); // steps whose numbers were checked while covered
  let result = null; // the core's answer for the current vectors

  // For the Export menu: the latest one-query result (rendered), the additive scorer's and the
  // every-token table's (null while not computed). A step still covered by "?" exports empty.
  let lastResult = null;
  let additive = null;
  let fullResult = null;
  let unregisterFull = [];
  const keyLabels = KEY_IDS.map((id) => `key ${id.slice(1)}`);
  const components = ['x', 'y'];
  const oneQuery = (source, pick, step, colLabels, colTitle) => () => {
    const values = source() && pick(source());
    return values ? {
      values: [Array.from(values, (v) => (step && covered(step) ? null : v))],
      rowLabels: ['q'], colLabels, rowTitle: 'query', colTitle,
    } : null;
  };
  const dot = () => lastResult;
  registerMatrix(element, 'raw scores q\u00b7k\u2c7c', oneQuery(dot, (r) => r.raw, 1, keyLabels, 'key'));
  registerMatrix(element, 'scaled scores q\u00b7k\u2c7c / \u221ad\u2096', oneQuery(dot, (r) => r.scaled, 2, keyLabels, 'key'));
  registerMatrix(element, 'weights softmax(scaled scores)', oneQuery(dot, (r) => r.weights, 3, keyLabels, 'key'));
  registerMatrix(element, 'output (weights \u00b7 V)', oneQuery(dot, (r) => r.output, 4, components, 'component'));
  const add = () => additive;
  registerMatrix(element, 'additive scores v\u1d40 tanh(W q + U k\u2c7c)', oneQuery(add, (r) => r.scores.data, 0, keyLabels, 'key'));
  registerMatrix(element, 'additive weights softmax(e)', oneQuery(add, (r) => r.weights.data, 0, keyLabels, 'key'));
  registerMatrix(element, 'additive output (weights \u00b7 V)', oneQuery(add, (r) => r.output.data, 0, components, 'component'));

  /** Offers the every-token table's scores and output while the table is shown (its heat map exports the weights). */
  function offerFull(on) {
    if (on === (unregisterFull.length > 0)) return;
    unregisterFull.forEach((unregister) => unregister());
    const full = (pick, colLabels, colTitle) => () => (fullResult
      ? { matrix: pick(fullResult), rowLabels: tokenLabels, colLabels, rowTitle: 'query', colTitle } : null);
    unregisterFull = on ? [
      registerMatrix(element, 'every token as a query: scaled scores', full((r) => r.scaledScores, tokenLabels, 'key')),
      registerMatrix(element, 'every token as a query: output (weights \u00b7 V)', full((r) => r.output, components, 'component')),
    ] : [];
  }

  function onVectorsChanged() {
    revealed.clear();
    for (const panel of stepPanels) panel.feedback.replaceChildren();
  }

  /** Whether step s (1-based) must be shown as "?" because the learner has not checked it yet. */
  function covered(s) {
    return state.get(`${NAME}.hide`) === 1 && s >= state.get(`${NAME}.step`) && !revealed.has(s);
  }

  function compute() {
    const q = getVector('q');
    const keys = KEY_IDS.map(getVector);
    const values = VALUE_IDS.map(getVector);
    const r = lab.attention(matrix([q]), matrix(keys), matrix(values));
    return {
      q, keys, values,
      raw: row(r.rawScores, 0), scaled: row(r.scaledScores, 0), weights: row(r.weights, 0), output: row(r.output, 0),
    };
  }

  /** The core's numbers for step index i (0-based): the values a prediction is checked against. */
  function truthOf(i) {
    return [result.raw, result.scaled, result.weights, result.output][i];
  }

  function check(index, inputs, feedback) {
    if (!result) return;
    const truth = truthOf(index);
    feedback.replaceChildren();
    inputs.forEach((input, j) => {
      const guess = parseNumber(input.value);
      const label = STEPS[index].guesses[j].replace(/^your /, '');
      let verdict;
      let text;
      if (guess === null) {
        verdict = 'none';
        text = `${label}: no guess; the core gets ${fmt(truth[j])}.`;
      } else {
        verdict = judge(guess, truth[j]);
        const word = { right: 'Right', close: `Close (within \u00b1${CLOSE_WITHIN})`, wrong: 'Wrong' }[verdict];
        text = `${label}: ${word}: you said ${fmtComponent(guess)}, the core gets ${fmt(truth[j])}.`;
      }
      htmlElement('li', { class: `by-hand-verdict by-hand-verdict-${verdict}` }, text, feedback);
    });
    revealed.add(index + 1);
    render();
  }

  const shown = (s, text) => (covered(s) ? '?' : text);

  function renderWorking() {
    const { q, keys, values, raw, scaled, weights, output } = result;
    const lineSets = [
      keys.map((k, j) => `q\u00b7k${j + 1} = ${fmtVector(q, fmtComponent)}\u00b7${fmtVector(k, fmtComponent)} = ${shown(1, fmt(raw[j]))}`),
      keys.map((_, j) => `${shown(1, fmt(raw[j]))} / \u221a2 = ${shown(2, fmt(scaled[j]))}`),
      [`softmax(${covered(2) ? '?' : fmtVector(scaled)}) = ${covered(3) ? '?' : fmtVector(weights)}`],
      [`${values.map((v, j) => `${shown(3, fmt(weights[j]))}\u00b7${fmtVector(v, fmtComponent)}`).join(' + ')} = ${covered(4) ? '?' : fmtVector(output)}`],
    ];
    stepPanels.forEach(({ working }, i) => {
      working.replaceChildren();
      for (const text of lineSets[i]) htmlElement('li', {}, text, working);
    });
    const series = [raw, scaled, weights];
    tableRows.forEach(({ cells }, i) => {
      if (i === 3) cells[0].textContent = covered(4) ? '?' : fmtVector(output);
      else cells.forEach((cell, j) => { cell.textContent = shown(i + 1, fmt(series[i][j])); });
    });
  }

  function renderPlanes() {
    const { weights, output } = result;
    // Both planes share one window, refitted unless a tip is being dragged.
    if (!Object.values(arrows).some((arrow) => arrow.dragging)) {
      const window = fitWindow(VECTORS.map((v) => getVector(v.id)));
      keyPlane.setWindow(window);
      valuePlane.setWindow(window);
    }
    for (const vector of VECTORS) arrows[vector.id].set(getVector(vector.id));
    VALUE_IDS.forEach((id, j) => {
      // Heavier values are drawn thicker, once the weights may be shown.
      arrows[id].setWidth(covered(3) ? 2.5 : 1.5 + 6 * weights[j]);
      const [x, y] = arrows[id].noteAt();
      weightLabels[j].setAttribute('x', x);
      weightLabels[j].setAttribute('y', y);
      weightLabels[j].textContent = covered(3) ? '' : `a ${formatFixed(weights[j], 2)}`;
    });
    const hideOutput = covered(4);
    outputDot.setAttribute('visibility', hideOutput ? 'hidden' : 'visible');
    outputLabel.setAttribute('visibility', hideOutput ? 'hidden' : 'visible');
    outputDot.setAttribute('cx', valuePlane.toX(output[0]));
    outputDot.setAttribute('cy', valuePlane.toY(output[1]));
    outputLabel.setAttribute('x', valuePlane.toX(output[0]) + 8);
    outputLabel.setAttribute('y', valuePlane.toY(output[1]) + 16);
    outputLabel.textContent = 'o';
  }

  function renderFields() {
    for (const [stateKey, input] of Object.entries(fields)) {
      const value = state.get(stateKey);
      // Leave a field alone while its reader is typing a number that already says the same.
      // (getRootNode: the figure may live in a shadow root, where document.activeElement is the host.)
      if (input.getRootNode().activeElement === input && parseNumber(input.value) === value) continue;
      input.value = String(value);
    }
  }

  function renderSteps() {
    const step = state.get(`${NAME}.step`);
    previous.disabled = step === 1;
    next.disabled = step === STEPS.length;
    stepCount.textContent = `Step ${step} of ${STEPS.length}`;
    tabs.forEach((tab, i) => {
      const selected = i + 1 === step;
      tab.setAttribute('aria-selected', String(selected));
      tab.setAttribute('tabindex', selected ? '0' : '-1');
      stepPanels[i].panel.hidden = !selected;
    });
    tableRows.forEach(({ tr }, i) => tr.classList.toggle('by-hand-current', i + 1 === step));
    let first = 0;
    let last = 0;
    lines.forEach(({ span, step: lineStep }, i) => {
      const current = lineStep === step;
      span.classList.toggle('code-line-current', current);
      if (current) {
        if (!first) first = i + 1;
        last = i + 1;
      }
    });
    codeNote.textContent = `Highlighted: lines ${first}\u2013${last}, step ${step} (${STEPS[step - 1].title.toLowerCase()}).`;
  }

  function renderFull() {
    const on = state.get(`${NAME}.table`) === 1;
    fullBox.hidden = !on;
    offerFull(on);
    fullResult = null;
    if (!on) return;
    const K = matrix(result.keys);
    const r = lab.attention(K, K, matrix(result.values));
    fullResult = r;
    fullMap.update(r.weights);
    fullRows.forEach((cells, i) => {
      cells.scores.textContent = fmtVector(row(r.scaledScores, i));
      cells.output.textContent = fmtVector(row(r.output, i));
    });
  }

  function renderCompare() {
    const { q, keys, values, scaled, weights, output } = result;
    const K = matrix(keys);
    const V = matrix(values);
    const W = matrix(ADDITIVE_W);
    const scores = lab.additiveScores(matrix([q]), K, W, matrix(ADDITIVE_U), matrix(ADDITIVE_V));
    const additiveWeights = lab.softmax(scores);
    const additiveOutput = lab.matmul(additiveWeights, V);
    const wq = lab.matmul(W, { rows: 2, cols: 1, data: Float64Array.from(q) });
    additive = { scores, weights: additiveWeights, output: additiveOutput };
    dotLines[0].value.textContent = covered(2) ? '?' : fmtVector(scaled);
    dotLines[1].value.textContent = covered(3) ? '?' : fmtVector(weights);
    dotLines[2].value.textContent = covered(4) ? '?' : fmtVector(output);
    addLines[0].value.textContent = fmtVector(scores.data);
    addLines[1].value.textContent = fmtVector(additiveWeights.data);
    addLines[2].value.textContent = fmtVector(additiveOutput.data);
    hiddenLine.replaceChildren(`For q = ${fmtVector(q, fmtComponent)} the query half of the additive hidden layer is W q = `, wqText, '.');
    wqText.textContent = fmtVector(wq.data);
  }

  function render() {
    hideBox.checked = state.get(`${NAME}.hide`) === 1;
    renderFields();
    renderSteps();
    try {
      result = compute();
      lastResult = result;
      renderWorking();
      renderPlanes();
      renderFull();
      renderCompare();
      problem.hidden = true;
    } catch (error) {
      lastResult = null;
      additive = null;
      fullResult = null;
      problem.textContent = `The core could not compute this figure: ${error.message}`;
      problem.hidden = false;
    }
  }

  const vectorKeys = VECTORS.flatMap((v) => [key(v.id, 'x'), key(v.id, 'y')]);
  state.subscribe(vectorKeys, () => {
    if (muted) return;
    onVectorsChanged();
    render();
  });
  state.subscribe([`${NAME}.step`, `${NAME}.table`, `${NAME}.hide`], () => {
    if (!muted) render();
  });
  render();
}
