// Matrices as the JS API takes and returns them: { rows, cols, data } with `data` a Float64Array
// (or a Float32Array) in row-major order. Re-exported by cpp/bindings/attention-lab.js.

/** Builds a matrix from nested rows: matrix([[1, 0], [0, 1]]). */
export function matrix(rows) {
  if (!Array.isArray(rows) || rows.length === 0 || !Array.isArray(rows[0])) {
    throw new Error('matrix: expected a non-empty array of rows');
  }
  const cols = rows[0].length;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== cols) {
      throw new Error(`matrix: row ${i} has ${row?.length} entries, expected ${cols}`);
    }
    data.set(row, i * cols);
  });
  return { rows: rows.length, cols, data };
}

/** Nested arrays from a matrix, for display and JSON. */
export function toRows(m) {
  return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
}

/** One row of a matrix as a Float64Array copy. */
export function row(m, i) {
  return m.data.slice(i * m.cols, (i + 1) * m.cols);
}

/** Entry (i, j) of a matrix. */
export function at(m, i, j) {
  return m.data[i * m.cols + j];
}
