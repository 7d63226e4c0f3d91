// The cost figure's results panel ("One attention layer": multiply-adds, memory of the
// weights, parameters, each from the core's cost model) and the reading of its typed fields
// into a layer for the core, with a message that quotes what was typed.

import { readCount } from '../../lib/controls/number-field.js';
import { createReadout } from '../../lib/controls/readout.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { formatAmount, formatBytes, formatCount, formatSignificant } from '../../lib/format/index.js';
import { LARGEST } from './settings.js';

export const DASH = { initial: '\u2014' }; // shown until the first valid input

const FIELD_NAMES = { n: 'n', m: 'm', d: 'd_model', h: 'heads h' };
// A message quotes what was typed, but only its start: 500 pasted digits must not become a
// 3,600 px line.
const MAX_QUOTED = 24;
export const quoted = (text) => (text.length > MAX_QUOTED
  ? `${text.slice(0, MAX_QUOTED)}\u2026 (${formatCount(text.length)} characters)` : text);

/**
 * The layer the fields describe, { n, m, dModel, heads, bytesPerNumber }; m is n's field when
 * `same`. Throws an error naming the field (error.field) of a count that is unreadable or too large.
 */
export function readSetup(fields, { same, bytes }) {
  const counts = {
    n: readCount(fields.n.input.value),
    m: readCount((same ? fields.n : fields.m).input.value),
    d: readCount(fields.d.input.value),
    h: readCount(fields.h.input.value),
  };
  const values = {};
  for (const [name, { value, problem }] of Object.entries(counts)) {
    const field = name === 'm' && same ? 'n' : name;
    const typed = quoted(fields[field].input.value.trim());
    // Commas and separators: the page's one rule for typed numbers (lib/controls/number-field.js).
    if (problem) throw Object.assign(new Error(`${FIELD_NAMES[field]} = \u201c${typed}\u201d is ${problem}`), { field });
    if (value > LARGEST) {
      throw Object.assign(new Error(`${FIELD_NAMES[field]} = ${typed} is more than this calculator takes (at most ${formatCount(LARGEST)})`), { field });
    }
    values[name] = value;
  }
  return { n: values.n, m: values.m, dModel: values.d, heads: values.h, bytesPerNumber: Number(bytes) };
}

/** The results panel in `panels`; returns { show(setup, counts), clear(), markStale(stale) }. */
export function createResultsPanel(panels) {
  const panel = htmlElement('div', { class: 'figure-panel' }, null, panels);
  htmlElement('p', { class: 'panel-title' }, 'One attention layer', panel);
  const computeList = htmlElement('div', { class: 'readouts' }, null, panel);
  const qk = createReadout(computeList, 'multiply-adds for Q K\u1d40', DASH);
  const av = createReadout(computeList, 'multiply-adds for A\u00b7V', DASH);
  const projections = createReadout(computeList, 'multiply-adds for the four projections', DASH);
  const ratio = createReadout(computeList, 'projections \u00f7 (Q K\u1d40 + A\u00b7V)', DASH);
  const memoryList = htmlElement('div', { class: 'readouts' }, null, panel);
  const perHead = createReadout(memoryList, 'attention weights, one head', DASH);
  const allHeads = createReadout(memoryList, 'attention weights, all heads', DASH);
  const parameters = createReadout(memoryList, 'parameters', DASH);
  const parameterBytes = createReadout(memoryList, 'parameter memory', DASH);
  const staleNote = htmlElement('p', { class: 'cost-stale', hidden: '' },
    'These numbers are for the last valid inputs: fix the field marked in red to update them.', panel);
  const readouts = [qk, av, projections, ratio, perHead, allHeads, parameters, parameterBytes];

  return {
    /** While a field is invalid, the last valid numbers stay, dimmed and said to be stale. */
    markStale(stale) {
      panel.classList.toggle('cost-results-stale', stale);
      staleNote.hidden = !stale;
    },

    show(setup, c) {
      qk.output.textContent = formatAmount(c.qkMacs);
      qk.note.textContent = `n\u00b7m\u00b7d = ${formatCount(c.qkMacs)}`;
      av.output.textContent = formatAmount(c.avMacs);
      av.note.textContent = 'the same count again';
      projections.output.textContent = formatAmount(c.projectionMacs);
      projections.note.textContent = `(2n + 2m)\u00b7d\u00b2 = ${formatCount(c.projectionMacs)}`;
      ratio.output.textContent = `${formatSignificant(c.projectionMacs / (c.qkMacs + c.avMacs), 3)}\u00d7`;
      const pairMacs = c.qkMacs + c.avMacs;
      ratio.note.textContent = c.projectionMacs === pairMacs ? 'an even split'
        : (c.projectionMacs > pairMacs ? 'the projections dominate' : 'the pairs dominate');
      perHead.output.textContent = formatBytes(c.weightBytesPerHead);
      perHead.note.textContent = `${formatCount(c.weightNumbersPerHead)} numbers, n\u00b7m`;
      allHeads.output.textContent = formatBytes(c.weightBytesAllHeads);
      allHeads.note.textContent = `\u00d7 ${formatCount(setup.heads)} head${setup.heads === 1 ? '' : 's'}`;
      parameters.output.textContent = formatCount(c.parameters);
      parameters.note.textContent = '4\u00b7d\u00b2, whatever h is';
      parameterBytes.output.textContent = formatBytes(c.parameterBytes);
    },

    /** Before any valid input there is nothing to keep: every result reads "—". */
    clear() {
      for (const readout of readouts) {
        readout.output.textContent = DASH.initial;
        readout.note.textContent = '';
      }
    },
  };
}
