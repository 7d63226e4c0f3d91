// The left half of the "by hand" figure: the query and keys on one plane, the values and
// the output on another, and a field for every component. Dragging a tip, pressing an arrow
// key on it or typing a component all set the store; render() draws what the store holds.
// A typed component is read when it is committed (Enter, or leaving the field), never while it
// is typed, by the page's one rule for numbers (lib/controls/number-field.js: "1,5" is 1.5);
// a clamp or an unreadable text is said beside the field, politely.

import { SEPARATORS, UNREADABLE, markUnreadable, readNumber } from '../../lib/controls/number-field.js';
import { htmlElement, svgElement, uniqueId } from '../../lib/dom/elements.js';
import { formatFixed } from '../../lib/format/index.js';
import { createArrow, createPlane, declutter } from './plane.js';
import {
  KEY_IDS, MAX, MIN, VALUE_IDS, VECTORS, clamp, fitWindow, fmtComponent, vectorKey,
} from './model.js';

const STEP = 0.1; // what the arrow keys add to a typed component
const MAX_QUOTED = 24; // characters of a typed text quoted back
const clip = (text) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}\u2026` : text);

/** Reads a committed field into the store, or says why not; the text is kept unless it was clamped. */
function commitField(state, input, stateKey, name, message) {
  const before = state.get(stateKey);
  const typed = input.value;
  const { value, problem } = readNumber(typed);
  const say = (text) => { message.textContent = text; };
  markUnreadable(input, problem === 'unreadable' || problem === 'separators');
  if (problem === 'empty') {
    input.value = String(before);
    say(`${name} was left empty, so it stays ${fmtComponent(before)}.`);
    return;
  }
  if (problem) {
    const why = problem === 'separators' ? SEPARATORS : `${UNREADABLE}; type a decimal number such as 0.5 or 0,5`;
    say(`${name}: \u201c${clip(typed.trim())}\u201d is ${why}. ${name} stays ${fmtComponent(before)}.`);
    return;
  }
  const kept = clamp(value);
  if (kept !== value) {
    const bound = kept === MAX ? `${fmtComponent(MAX)} is the largest` : `${fmtComponent(MIN)} is the smallest`;
    say(`${bound} a component may be: ${name} = ${clip(typed.trim())} was set to ${fmtComponent(kept)}.`);
    input.value = String(kept);
  } else if (!Object.is(kept, before)) {
    say('');
  }
  state.set(stateKey, kept);
}

/**
 * Builds the panel into `parent`. onRelease() runs when a dragged tip is let go (the planes
 * refit then). Returns { renderFields(), renderPlanes(vectors, result, covered) }.
 */
export function createVectorsPanel(parent, { state, onRelease }) {
  const left = htmlElement('div', { class: 'figure-panel by-hand-vectors' }, null, parent);
  const planes = htmlElement('div', { class: 'by-hand-planes' }, null, left);
  const keyPlane = createPlane(planes, { title: 'Query and keys: they set the weights', label: 'query and keys' });
  const valuePlane = createPlane(planes, { title: 'Values and output: the blend', label: 'values and output' });

  const setVector = (id, [x, y]) => state.setMany([[vectorKey(id, 'x'), x], [vectorKey(id, 'y'), y]]);
  const arrows = {};
  // Values first, then keys, then the query, so the query's tip is on top where tips meet;
  // the query's thick shaft goes under the keys, so q = k1 (the default) still shows k1.
  for (const id of [...VALUE_IDS, ...KEY_IDS, 'q']) {
    const vector = VECTORS.find((v) => v.id === id);
    const plane = vector.kind === 'value' ? valuePlane : keyPlane;
    arrows[id] = createArrow(plane, {
      name: id, kind: vector.kind, onMove: (xy) => setVector(id, xy), onRelease, under: id === 'q',
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
  // Under each grid, what became of the last component typed in it (clamped, unreadable): a
  // polite live region, there (empty) before anything is said in it.
  const messages = {};
  for (const kind of ['query', 'value']) {
    const id = uniqueId('by-hand-field-message');
    messages[kind] = { id, node: htmlElement('p', { id, class: 'by-hand-field-message', role: 'status' }, null, fieldGrids[kind].parentNode) };
  }
  messages.key = messages.query;
  const fields = {};
  for (const vector of VECTORS) {
    const line = htmlElement('div', { class: `by-hand-field-row by-hand-${vector.kind}-row` }, null, fieldGrids[vector.kind]);
    htmlElement('span', { class: `by-hand-field-name by-hand-${vector.kind}`, 'aria-hidden': 'true' }, vector.id, line);
    const { id: messageId, node: message } = messages[vector.kind];
    for (const axis of ['x', 'y']) {
      const inputId = uniqueId('by-hand-field');
      // The label reads "q x" in full; the vector's name is shown once per row, so it is hidden here.
      const label = htmlElement('label', { for: inputId, class: 'by-hand-axis-label' }, null, line);
      htmlElement('span', { class: 'visually-hidden' }, `${vector.id} `, label);
      label.append(axis);
      const input = htmlElement('input', {
        type: 'text', id: inputId, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
        class: 'by-hand-number', 'aria-describedby': messageId,
      }, null, line);
      const stateKey = vectorKey(vector.id, axis);
      const commit = () => commitField(state, input, stateKey, `${vector.id} ${axis}`, message);
      input.addEventListener('change', commit);
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') commit();
        else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
          // As a number field would: a tenth up or down from the value in force.
          event.preventDefault();
          const stepped = Math.round((state.get(stateKey) + (event.key === 'ArrowUp' ? STEP : -STEP)) * 100) / 100;
          input.value = String(clamp(stepped));
          commit();
        }
      });
      fields[stateKey] = input;
    }
  }

  function renderFields() {
    for (const [stateKey, input] of Object.entries(fields)) {
      // Never rewrite what a reader is typing: a focused field is read when it is committed.
      // (getRootNode: the figure may live in a shadow root, where document.activeElement is the host.)
      if (input.getRootNode().activeElement === input) continue;
      const shown = String(state.get(stateKey));
      if (input.value !== shown) {
        input.value = shown;
        markUnreadable(input, false); // an unreadable text it replaces is gone
      }
    }
  }

  function renderPlanes(vectors, { weights, output }, covered) {
    // Each plane fits its own vectors (a long query does not shrink the values), refitted
    // unless a tip is being dragged.
    if (!Object.values(arrows).some((arrow) => arrow.dragging)) {
      keyPlane.setWindow(fitWindow(['q', ...KEY_IDS].map((id) => vectors[id])));
      valuePlane.setWindow(fitWindow([...VALUE_IDS.map((id) => vectors[id]), Array.from(output)]));
    }
    for (const vector of VECTORS) arrows[vector.id].set(vectors[vector.id]);
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
    outputLabel.setAttribute('x', valuePlane.toX(output[0]) + 4 + 4 * valuePlane.text);
    outputLabel.setAttribute('y', valuePlane.toY(output[1]) + 7 + 9 * valuePlane.text);
    outputLabel.textContent = 'o';
    // Names, weights and the output's label never pile up (q = [−4, 4] sends them all to v2).
    const dot = { x: valuePlane.toX(output[0]) - 7, y: valuePlane.toY(output[1]) - 7, width: 14, height: 14 };
    declutter([...VALUE_IDS.map((id) => arrows[id].label), ...weightLabels, ...(hideOutput ? [] : [outputLabel])],
      hideOutput ? [] : [dot], valuePlane.text);
    declutter(['q', ...KEY_IDS].map((id) => arrows[id].label), [], keyPlane.text);
    last = [vectors, { weights, output }, covered];
  }
  // The last drawing, drawn again when a plane's scale or the reader's text size changes.
  let last = null;
  keyPlane.onRefit = valuePlane.onRefit = () => { if (last) renderPlanes(...last); };

  return {
    renderFields,
    /** Draws the vectors, and the weights and output of `result` unless covered(step) says not yet. */
    renderPlanes,
  };
}
