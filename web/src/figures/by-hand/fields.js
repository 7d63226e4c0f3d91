// The "by hand" figure's component fields: two for every vector, under its plane. A typed
// component is read when it is committed (Enter, or leaving the field), never while it is
// typed, by the page's one rule for numbers (lib/controls/number-field.js: "1,5" is 1.5); a
// clamp or an unreadable text is said beside the field, politely. The arrow keys step a field
// by a tenth.

import { SEPARATORS, UNREADABLE, markUnreadable, readNumber } from '../../lib/controls/number-field.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { MAX, MIN, VECTORS, clamp, fmtComponent, vectorKey } from './model.js';

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

/** The fields of one vector, `vector.id` x and y, in a row of `grid`; returns them by state key. */
function createVectorRow(grid, vector, { state, message }) {
  const line = htmlElement('div', { class: `by-hand-field-row by-hand-${vector.kind}-row` }, null, grid);
  htmlElement('span', { class: `by-hand-field-name by-hand-${vector.kind}`, 'aria-hidden': 'true' }, vector.id, line);
  const fields = {};
  for (const axis of ['x', 'y']) {
    const inputId = uniqueId('by-hand-field');
    // The label reads "q x" in full; the vector's name is shown once per row, so it is hidden here.
    const label = htmlElement('label', { for: inputId, class: 'by-hand-axis-label' }, null, line);
    htmlElement('span', { class: 'visually-hidden' }, `${vector.id} `, label);
    label.append(axis);
    const input = htmlElement('input', {
      type: 'text', id: inputId, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
      class: 'by-hand-number', 'aria-describedby': message.id,
    }, null, line);
    const stateKey = vectorKey(vector.id, axis);
    const commit = () => commitField(state, input, stateKey, `${vector.id} ${axis}`, message.node);
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
  return fields;
}

/**
 * The fields' title into `panel`, and a grid of fields under each plane: the query's and the
 * keys' under `keyPlane`, the values' under `valuePlane`. Returns { renderFields() }, which
 * shows what the store holds.
 */
export function createComponentFields(panel, { state, keyPlane, valuePlane }) {
  htmlElement('p', { class: 'by-hand-fields-title' },
    `Drag a tip, focus it and press the arrow keys, or type its components (from ${fmtComponent(MIN)} to ${fmtComponent(MAX)}). Every vector has two components, so d\u2096 = 2.`, panel);
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
    Object.assign(fields, createVectorRow(fieldGrids[vector.kind], vector, { state, message: messages[vector.kind] }));
  }

  return {
    renderFields() {
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
    },
  };
}
