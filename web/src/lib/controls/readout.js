// A labelled number under a figure: <p class="readout"><label>…</label><output>…</output>
// <span class="readout-note">…</span></p>. The label is tied to the output, so a screen
// reader and a test find the value by its name ("largest weight", "entropy", …).

import { fixedTextBox, htmlElement, uniqueId } from '../dom/elements.js';

/**
 * Returns { line, labelNode, output, note }: set output's text to the value, note's to a muted
 * remark (and labelNode's when the name itself follows a setting). `initial` is shown until
 * the first value arrives (e.g. "—" where a value may never come). `chars`, for a value that
 * changes on every step of a slider and never prints more than that many characters: the
 * value then sits in a box of that fixed width (.fixed-text), and `output` is that box inside
 * the <output>, so a new value lays out the box alone.
 */
export function createReadout(parent, label, { initial = null, chars = null } = {}) {
  const id = uniqueId('readout');
  const line = htmlElement('p', { class: 'readout' }, null, parent);
  const labelNode = htmlElement('label', { for: id, class: 'readout-label' }, label, line);
  const element = htmlElement('output', { id, class: 'readout-value' }, chars ? null : initial, line);
  const output = chars ? fixedTextBox(element, chars, initial) : element;
  const note = htmlElement('span', { class: 'readout-note' }, null, line);
  return { line, labelNode, output, note };
}
