// Table 1 of the paper, its first three rows (self-attention, recurrent, convolutional),
// evaluated by the core at two sequence lengths, the cheapest layer per length in bold.

import { uniqueId, htmlElement } from '../../lib/dom/elements.js';
import { formatAmount, formatCount } from '../../lib/format/index.js';

// Table 1 is read at a ViT patch grid and at one token per pixel of a 224 × 224 image.
const TABLE = { lengths: [196, 224 * 224], d: 768, k: 3 };
const TABLE_FORMULAS = {
  'self-attention': ['O(n\u00b2\u00b7d)', 'O(1)', 'O(1)'],
  recurrent: ['O(n\u00b7d\u00b2)', 'O(n)', 'O(n)'],
  convolutional: ['O(k\u00b7n\u00b7d\u00b2)', 'O(1)', 'O(log\u2096 n)'],
};

/** Builds the table into `body` and fills it from the core (throws what the core throws). */
export function createTableOne(body, { lab }) {
  const tableWrap = htmlElement('div', {
    class: 'cost-table-wrap', role: 'region', tabindex: '0', 'aria-labelledby': uniqueId('table-caption'),
  }, null, body);
  const table = htmlElement('table', { class: 'figure-table cost-table' }, null, tableWrap);
  const caption = htmlElement('caption', { id: tableWrap.getAttribute('aria-labelledby') }, null, table);
  caption.textContent =
    `Table 1 of the paper, first three rows, evaluated at d = ${TABLE.d} and kernel width k = ${TABLE.k}: ` +
    `n = ${formatCount(TABLE.lengths[0])} is a 14 \u00d7 14 grid of image patches, ` +
    `n = ${formatCount(TABLE.lengths[1])} one token per pixel of a 224 \u00d7 224 image. The cheapest layer per length is in bold.`;
  const head = htmlElement('thead', {}, null, table);
  const headRow = htmlElement('tr', {}, null, head);
  htmlElement('th', { scope: 'col' }, 'measure, and how it grows', headRow);
  for (const n of TABLE.lengths) htmlElement('th', { scope: 'col', class: 'cost-number' }, `n = ${formatCount(n)}`, headRow);


  const byLength = TABLE.lengths.map((n) => lab.layerComparison({ n, d: TABLE.d, k: TABLE.k }));
  const measures = [
    ['complexity per layer', 'complexityPerLayer', formatAmount],
    ['sequential operations', 'sequentialOps', formatCount],
    ['maximum path length', 'maxPathLength', formatCount],
  ];
  // One row group per layer type: its name spans the table, then one row per measure.
  byLength[0].forEach((row, r) => {
    const tbody = htmlElement('tbody', {}, null, table);
    const nameRow = htmlElement('tr', { class: 'cost-table-layer' }, null, tbody);
    htmlElement('th', { scope: 'rowgroup', colspan: 1 + TABLE.lengths.length }, row.layer, nameRow);
    measures.forEach(([name, key, format], j) => {
      const tr = htmlElement('tr', {}, null, tbody);
      const header = htmlElement('th', { scope: 'row' }, `${name} `, tr);
      htmlElement('span', { class: 'cost-formula' }, TABLE_FORMULAS[row.layer]?.[j] ?? '', header);
      byLength.forEach((rows) => {
        const values = rows.map((other) => other[key]);
        const value = rows[r][key];
        const cell = htmlElement('td', { class: 'cost-number' }, null, tr);
        if (key === 'complexityPerLayer' && value === Math.min(...values)) htmlElement('strong', {}, format(value), cell);
        else cell.textContent = format(value);
      });
    });
  });
}
