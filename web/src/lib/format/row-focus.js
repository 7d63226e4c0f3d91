// Where one row of attention weights puts its weight, for the sentences under the maps
// ("“it”: most on “cat”, 1.000" or "0.125 on every key"). Ties are named together.

const EVEN = 1e-9; // a row whose weights differ by less than this is spread evenly

/** True when every weight of row i is the same (a row that spreads its weight evenly). */
export function isEvenRow(m, i) {
  const values = m.data.subarray(i * m.cols, (i + 1) * m.cols);
  return Math.max(...values) - Math.min(...values) < EVEN;
}

/** Keys of row i that share the row's largest weight (more than one when the row has a tie). */
export function keysAtMax(m, i, largest) {
  const keys = [];
  for (let j = 0; j < m.cols; j += 1) if (largest - m.data[i * m.cols + j] < EVEN) keys.push(j);
  return keys;
}
