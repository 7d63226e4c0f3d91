// The measured figure's table of every measurement: one row per size n, and each form's time
// of one call (median) and memory, filled in as the run measures them, "stopped" where a form
// stopped. It is the figure's text alternative to its two plots.

import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { formatBytes, formatCount, formatDuration } from '../../lib/format/index.js';
import { FORMS } from './plan.js';

export const DASH = '\u2014';

/** The table of every measurement: n, and each form's time and memory. */
export function createMeasuredTable(parent) {
  const wrap = htmlElement('div', { class: 'measured-table-wrap', role: 'region', tabindex: '0', hidden: '' }, null, parent);
  const captionId = uniqueId('measured-caption');
  wrap.setAttribute('aria-labelledby', captionId);
  const tableElement = htmlElement('table', { class: 'figure-table measured-table' }, null, wrap);
  htmlElement('caption', { id: captionId }, 'Each size as measured: the time of one call (median) and the memory of the matrices it made', tableElement);
  for (const span of ['1', '2', '2']) htmlElement('colgroup', { span }, null, tableElement);
  const head = htmlElement('thead', {}, null, tableElement);
  const formRow = htmlElement('tr', {}, null, head);
  htmlElement('th', { scope: 'col', rowspan: '2' }, 'n', formRow);
  for (const form of FORMS) htmlElement('th', { scope: 'colgroup', colspan: '2', class: 'measured-form' }, form, formRow);
  const quantityRow = htmlElement('tr', {}, null, head);
  for (const form of FORMS) {
    htmlElement('th', { scope: 'col', 'aria-label': `${form}: time` }, 'time', quantityRow);
    htmlElement('th', { scope: 'col', 'aria-label': `${form}: memory` }, 'memory', quantityRow);
  }
  const rows = htmlElement('tbody', {}, null, tableElement);
  let cells = new Map(); // n → { direct: { time, memory }, streaming: { … } }

  return {
    reset({ sizes }) {
      rows.replaceChildren();
      cells = new Map();
      for (const n of sizes) {
        const row = htmlElement('tr', {}, null, rows);
        htmlElement('th', { scope: 'row', class: 'measured-number' }, formatCount(n), row);
        const entry = {};
        for (const form of FORMS) {
          entry[form] = {
            time: htmlElement('td', { class: 'measured-number' }, DASH, row),
            memory: htmlElement('td', { class: 'measured-number' }, DASH, row),
          };
        }
        cells.set(n, entry);
      }
      wrap.hidden = false;
    },
    draw({ points, stops }) {
      for (const form of FORMS) {
        for (const point of points[form]) {
          const cell = cells.get(point.n)?.[form];
          if (!cell || cell.time.dataset.seconds) continue;
          cell.time.textContent = formatDuration(point.seconds);
          cell.time.dataset.seconds = String(point.seconds);
          if (point.low !== undefined && point.high !== undefined) {
            // The spread of its repeated timings, fastest to slowest (or 10th to 90th percentile).
            htmlElement('span', { class: 'measured-spread' }, ` (${formatDuration(point.low)}\u2013${formatDuration(point.high)}, ${point.timings}\u00d7)`, cell.time);
          }
          cell.memory.textContent = formatBytes(point.bytes);
          cell.memory.dataset.bytes = String(point.bytes);
        }
        const stopped = stops[form];
        if (!stopped) continue;
        for (const [n, entry] of cells) {
          if (n < stopped.n || entry[form].time.dataset.seconds) continue;
          entry[form].time.textContent = 'stopped';
          entry[form].memory.textContent = DASH;
        }
      }
    },
    clear() {
      rows.replaceChildren();
      cells = new Map();
      wrap.hidden = true;
    },
  };
}
