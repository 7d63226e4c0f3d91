// The pure parts of the Export menu, run under node: CSV and JSON files of matrices and plot
// series (web/src/lib/export/files.js) and the registry of extra matrices
// (web/src/lib/export/registry.js). The downloads themselves are tested in the browser
// (tests/browser/export.test.mjs).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compactJson, csvField, matrixToCsv, matrixToJson, normaliseMatrix, seriesToCsv, slug,
} from '../../../web/src/lib/export/files.js';
import { listExportables, registerMatrix } from '../../../web/src/lib/export/registry.js';
import { parseCsv } from './csv.mjs';

test('CSV fields are quoted only when needed; a matrix becomes a header row plus one row per matrix row', () => {
  assert.equal(csvField('cat'), 'cat');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField(null), '');
  const matrix = normaliseMatrix({
    matrix: { rows: 2, cols: 3, data: new Float64Array([1, 0.5, NaN, -2, 1e-7, 3]) },
    rowLabels: ['q,1', 'q2'], colLabels: ['a', 'b', 'c'], rowTitle: 'query', colTitle: 'key',
  });
  assert.deepEqual(matrix.values, [[1, 0.5, null], [-2, 1e-7, 3]], 'NaN becomes an empty entry');
  const rows = parseCsv(matrixToCsv(matrix));
  assert.deepEqual(rows, [['query \\ key', 'a', 'b', 'c'], ['q,1', '1', '0.5', ''], ['q2', '-2', '1e-7', '3']]);
  const json = JSON.parse(matrixToJson(matrix, { figure: 'f', name: 'm', settings: { tau: 2 } }));
  assert.deepEqual(json, {
    figure: 'f', name: 'm', rows: 2, cols: 3, rowTitle: 'query', colTitle: 'key',
    rowLabels: ['q,1', 'q2'], colLabels: ['a', 'b', 'c'], values: [[1, 0.5, null], [-2, 1e-7, 3]], settings: { tau: 2 },
  });
});

test('nested arrays and default labels are accepted; ragged or missing matrices are refused', () => {
  const matrix = normaliseMatrix({ values: [[1, 2], [3, 4]] });
  assert.deepEqual([matrix.rowLabels, matrix.colLabels], [['0', '1'], ['0', '1']]);
  assert.equal(normaliseMatrix([[1], [2, 3]]), null);
  assert.equal(normaliseMatrix(null), null);
  assert.equal(normaliseMatrix({ foo: 1 }), null);
});

test('plot data: one x column when the series share x, the long form otherwise', () => {
  const shared = { xLabel: 'n', yLabel: 'cost', series: [{ name: 'a', x: [1, 2], y: [3, 4] }, { name: 'b', x: [1, 2], y: [5, 6] }] };
  assert.deepEqual(parseCsv(seriesToCsv(shared)), [['n', 'a', 'b'], ['1', '3', '5'], ['2', '4', '6']]);
  const apart = { xLabel: 'n', yLabel: 'cost', series: [{ name: 'a', x: [1], y: [3] }, { name: 'b', x: [2, 3], y: [5, 6] }] };
  assert.deepEqual(parseCsv(seriesToCsv(apart)), [['series', 'n', 'cost'], ['a', '1', '3'], ['b', '2', '5'], ['b', '3', '6']]);
});

test('compact JSON keeps rows on one line and still parses; slugs are file-name safe', () => {
  const value = { a: [[1, null], [2, 3]], b: { c: 'x' }, d: undefined, e: [] };
  const text = compactJson(value);
  assert.deepEqual(JSON.parse(text), { a: [[1, null], [2, 3]], b: { c: 'x' }, e: [] });
  assert.match(text, /\[1,null\]/);
  assert.equal(slug('head 0 of 4, built for \u201cit\u201d: weights'), 'head-0-of-4-built-for-it-weights');
  assert.equal(slug('\u221a\u2026'), 'export');
});

test('registerMatrix adds named matrices to a figure, replaces one of the same name and can be undone', () => {
  const figure = { querySelectorAll: () => [] }; // a figure with no heat maps or plots
  registerMatrix(figure, 'outputs', () => ({ values: [[0]] }));
  const first = registerMatrix(figure, 'outputs', () => ({ values: [[1]] }));
  registerMatrix(figure, 'scores', () => ({ values: [[2]] }));
  let list = listExportables(figure);
  assert.deepEqual(list.matrices.map((m) => m.name), ['outputs', 'scores']);
  assert.deepEqual(list.matrices[0].getMatrix(), { values: [[1]] }, 'the later registration wins');
  assert.deepEqual(list.matrices[1].getMatrix(), { values: [[2]] });
  first();
  list = listExportables(figure);
  assert.deepEqual(list.matrices.map((m) => m.name), ['scores']);
  assert.throws(() => registerMatrix(figure, 'x', 'not a function'), /bad arguments/);
});

test('CSV entries carry no float noise: 12 significant digits, and 0 for entries at the noise floor', () => {
  const matrix = normaliseMatrix({ values: [[-1.9999999999999998, 8.881784197001252e-16], [0.1 + 0.2, 2.5e-7]], rowLabels: ['a', 'b'], colLabels: ['x', 'y'] });
  const rows = parseCsv(matrixToCsv(matrix));
  assert.deepEqual(rows[1], ['a', '-2', '0']);
  assert.deepEqual(rows[2], ['b', '0.3', '2.5e-7'], 'real small values stay');
  assert.equal(matrix.values[0][0], -1.9999999999999998, 'the matrix itself (and so its JSON) keeps the float64 as computed');
});
