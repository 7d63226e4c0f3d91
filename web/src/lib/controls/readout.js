// A labelled number under a figure: <p class="readout"><label>…</label><output>…</output>
// <span class="readout-note">…</span></p>. The label is tied to the output, so a screen
// reader and a test find the value by its name ("largest weight", "entropy", …).

import { htmlElement, uniqueId } from '../dom/elements.js';

/**
 * Returns { line, labelNode, output, note }: set output.textContent to the value, note to a
 * muted remark (and labelNode.textContent when the name itself follows a setting).
 * `initial` is shown until the first value arrives (e.g. "—" where a value may never come).
 */
export function createReadout(parent, label, { initial = null } = {}) {
  const id = uniqueId('readout');
  const line = htmlElement('p', { class: 'readout' }, null, parent);
  const labelNode = htmlElement('label', { for: id, class: 'readout-label' }, label, line);
  const output = htmlElement('output', { id, class: 'readout-value' }, initial, line);
  const note = htmlElement('span', { class: 'readout-note' }, null, line);
  return { line, labelNode, output, note };
}
