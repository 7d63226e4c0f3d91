// The "by hand" figure's model, with no DOM: the lesson's vectors and steps, the code lines
// of each step, judging a prediction, the planes' window, and the one call into the core per
// change. Tested under node (tests/js/page/by-hand-model.test.mjs).

import { matrix, row } from '#attention-lab';
import { grade } from '../../lib/controls/grade.js';
import { formatFixed, formatSignificant } from '../../lib/format/index.js';

export const NAME = 'by-hand';
export const MIN = -4; // smallest component a vector may have
export const MAX = 4; // largest component
const WINDOW_LOW = -1; // the planes always show at least [-1, 2] × [-1, 2], …
const WINDOW_HIGH = 2; // … and grow (between drags) to fit every vector with half a unit to spare

// The lesson's worked example: d_k = 2, three keys and three values.
export const VECTORS = [
  { id: 'q', kind: 'query', defaults: [1, 0] },
  { id: 'k1', kind: 'key', index: 0, defaults: [1, 0] },
  { id: 'k2', kind: 'key', index: 1, defaults: [0, 1] },
  { id: 'k3', kind: 'key', index: 2, defaults: [1, 1] },
  { id: 'v1', kind: 'value', index: 0, defaults: [1, 0] },
  { id: 'v2', kind: 'value', index: 1, defaults: [0, 1] },
  { id: 'v3', kind: 'value', index: 2, defaults: [0.5, 0.5] },
];
export const KEY_IDS = ['k1', 'k2', 'k3'];
export const VALUE_IDS = ['v1', 'v2', 'v3'];

export const PRESETS = [
  { label: 'q = [1, 0]', q: [1, 0], table: false },
  { label: 'sharper query q = [4, 0]', q: [4, 0], table: false },
  { label: 'every token as query', q: [1, 0], table: true },
];

// Fixed teaching matrices of an additive (Bahdanau) scorer with a hidden width of 2. In a real
// model they are learned; these are just small numbers, so which key wins means nothing here.
export const ADDITIVE_W = [[1, 0.5], [-0.5, 1]];
export const ADDITIVE_U = [[1, -0.5], [0.5, 1]];
export const ADDITIVE_V = [[1, 1]];

export const STEPS = [
  {
    title: 'Dot products',
    text: 'Multiply the query and each key component by component and add: one score per key. '
      + 'A key pointing the same way as the query scores high; a key at a right angle to it scores zero.',
    guesses: ['your q·k1', 'your q·k2', 'your q·k3'],
  },
  {
    title: 'Scale by \u221ad\u2096',
    text: 'Divide every score by the square root of the key width. Here d\u2096 = 2, so each score is divided by \u221a2.',
    guesses: ['your scaled score 1', 'your scaled score 2', 'your scaled score 3'],
  },
  {
    title: 'Softmax',
    text: 'Raise e to each scaled score, then divide by the total: the weights are positive and add up to one. '
      + 'Even a key that does not match at all keeps a little weight.',
    guesses: ['your weight 1', 'your weight 2', 'your weight 3'],
  },
  {
    title: 'Weighted sum',
    text: 'Multiply each value by its weight and add: the output is a blend of the values, '
      + 'pulled towards the values whose keys matched.',
    guesses: ['your output x', 'your output y'],
  },
];

/** The store key of one component of a vector: "by-hand.qx". */
export const vectorKey = (id, axis) => `${NAME}.${id}${axis}`;

/** The figure's settings: both components of every vector, the step, the table, the cover. */
export const SETTINGS = {
  ...Object.fromEntries(VECTORS.flatMap((vector) => vector.defaults.map((value, axis) => [
    vectorKey(vector.id, 'xy'[axis]), { type: 'number', min: MIN, max: MAX, default: value },
  ]))),
  [`${NAME}.step`]: { type: 'integer', min: 1, max: STEPS.length, default: 1 },
  [`${NAME}.table`]: { type: 'boolean', default: false },
  // Covered by default: a first-time reader is asked before being told.
  [`${NAME}.hide`]: { type: 'boolean', default: true },
};

export const clamp = (value) => Math.min(MAX, Math.max(MIN, value));

// How the figure prints numbers: results to three decimals, components and typed values to
// three significant digits, vectors in brackets.
export const fmt = (value) => formatFixed(value, 3);
export const fmtComponent = (value) => formatSignificant(value, 3);
export const fmtVector = (values, format = fmt) => `[${Array.from(values, format).join(', ')}]`;

/** The function between the page-code markers of the header, as lines, each with its step (or 0). */
export function codeLines(header) {
  const all = header.split('\n');
  const begin = all.findIndex((line) => line.includes('// page-code-begin'));
  const end = all.findIndex((line) => line.includes('// page-code-end'));
  if (begin < 0 || end <= begin) throw new Error('attend_one.hpp has no page-code markers');
  let step = 0;
  return all.slice(begin + 1, end).map((text) => {
    const marker = /^\s*\/\/ (\d)\. /.exec(text);
    if (marker) step = Number(marker[1]);
    const blank = text.trim() === '';
    const closing = /^\}/.test(text); // the function's closing brace belongs to no step
    return { text, step: blank || closing ? 0 : step };
  });
}

/** "right", "close" or "wrong" for a guess against the core's value (lib/controls/grade.js). */
export function judge(guess, truth) {
  return grade(guess, truth);
}

/**
 * The square window [low, high]² that both planes show: at least [-1, 2]², grown to hold
 * every vector with half a unit to spare, in whole units.
 */
export function fitWindow(points) {
  let low = WINDOW_LOW;
  let high = WINDOW_HIGH;
  for (const [x, y] of points) {
    low = Math.min(low, Math.floor(Math.min(x, y) - 0.5));
    high = Math.max(high, Math.ceil(Math.max(x, y) + 0.5));
  }
  return { low: Math.max(low, MIN - 1), high: Math.min(high, MAX + 1) };
}

/** Every vector's [x, y] from the store, by id. */
export function vectorsOf(state) {
  return Object.fromEntries(VECTORS.map((v) => [v.id, [state.get(vectorKey(v.id, 'x')), state.get(vectorKey(v.id, 'y'))]]));
}

/** The core's answer for one query: its raw and scaled scores, weights and output, with the inputs. */
export function computeOneQuery(lab, vectors) {
  const q = vectors.q;
  const keys = KEY_IDS.map((id) => vectors[id]);
  const values = VALUE_IDS.map((id) => vectors[id]);
  const r = lab.attention(matrix([q]), matrix(keys), matrix(values));
  return {
    q, keys, values,
    raw: row(r.rawScores, 0), scaled: row(r.scaledScores, 0), weights: row(r.weights, 0), output: row(r.output, 0),
  };
}

/** The core's numbers for step index i (0-based): the values a prediction is checked against. */
export function truthOf(result, i) {
  return [result.raw, result.scaled, result.weights, result.output][i];
}

/** Every token as a query: Q = K = the three keys, V = the three values. */
export function computeEveryToken(lab, result) {
  const K = matrix(result.keys);
  return lab.attention(K, K, matrix(result.values));
}

/** Bahdanau's additive score for the same query, keys and values, with the query half W q. */
export function computeAdditive(lab, result) {
  const { q, keys, values } = result;
  const W = matrix(ADDITIVE_W);
  const scores = lab.additiveScores(matrix([q]), matrix(keys), W, matrix(ADDITIVE_U), matrix(ADDITIVE_V));
  const weights = lab.softmax(scores);
  const output = lab.matmul(weights, matrix(values));
  const wq = lab.matmul(W, { rows: 2, cols: 1, data: Float64Array.from(q) });
  return { scores, weights, output, wq };
}
