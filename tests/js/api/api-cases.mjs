// The one table of the JS API's cases: for every public name of the object createAttentionLab
// returns, the calls that must fail (with the message each must give), a good call with its
// reference result (numbers worked out by hand or by a plain JavaScript reference, to the
// tolerance given), and how the fuzz draws its arguments. Read by the error-path leak test
// (error-path-leaks.test.mjs), the fuzz (random-calls.test.mjs), scripts/soak.mjs, and the test
// that the API, this table and docs/contributing.md's table list the same names (api-names.test.mjs).
//
// An entry:
//   failing   [{ label?, args: (context) => [...], message: RegExp, calls? }]; an empty list needs
//             `cannotFail`; `calls`: how many the leak test makes, when fewer than its 50,000 (each
//             of the snapshot rule's calls makes a fresh resizable buffer)
//   good      { args: (context) => [...], then?: (result) => value, expect: { path: number | number[] },
//               tolerance, check?: (value) => void }; `value: (lab) => lab.x` for names that are not functions
//   fuzz      (f) => [...] arguments drawn with the fuzz's toolkit f (random-calls.test.mjs), or null with `noFuzz`
// `context` is { toy, lab }: the toy sentence, and the API (for a getter that calls it again); paths are dotted ('weights.data', 'heads.1.weights.data.57').
import assert from 'node:assert/strict';
import { matrix } from '../../../cpp/bindings/attention-lab.js';

const keys = () => matrix([[1, 0], [0, 1], [1, 1]]);
const values = () => matrix([[1, 0], [0, 1], [0.5, 0.5]]);
const zeros = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols) });
const f32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
// The lesson's worked example: q = [1, 0] against those three keys and values. The scores are
// [1, 0, 1] / √2, so the weights are e^0.7071 : 1 : e^0.7071 = [0.401, 0.198, 0.401] and the
// output 0.401·[1, 0] + 0.198·[0, 1] + 0.401·[0.5, 0.5] = [0.602, 0.398].
const worked = () => [matrix([[1, 0]]), keys(), values()];
// The snapshot rule's hostile arguments: data in a resizable (or growable shared) buffer, and a
// later argument whose getter changes that buffer after the earlier argument was read and checked.
/** A matrix whose data is a length-tracking view of a resizable ArrayBuffer, or a growable SharedArrayBuffer. */
export function resizableMatrix(rows, shared = false) {
  const entries = rows.length * rows[0].length;
  const Buffer = shared ? SharedArrayBuffer : ArrayBuffer;
  const buffer = new Buffer(8 * entries, { maxByteLength: 8 * entries + 64 });
  const data = new Float64Array(buffer);
  data.set(rows.flat());
  return { matrix: { rows: rows.length, cols: rows[0].length, data }, buffer };
}
/** The same matrix, whose `rows` getter first does `act` (to another argument's buffer). */
export function actingMatrix(m, act) {
  return { get rows() { act(); return m.rows; }, cols: m.cols, data: m.data };
}
export const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });

// `from` and `to` are the buffer's byte lengths when the argument was read and at the copy.
const changed = (name, from, to) => new RegExp(`^${name}: the buffer of its data was resized: it had ${from} bytes when ${name} was read, ${to} now, by a later argument; nothing was computed$`);
const detachedMessage = (name) => new RegExp(`^${name}: the buffer of its data was detached \\(transferred\\), by a later argument; nothing was computed$`);

const WORKED = { 'rawScores.data': [1, 0, 1], 'scaledScores.data': [Math.SQRT1_2, 0, Math.SQRT1_2],
  'weights.data': [0.4011, 0.1978, 0.4011], 'output.data': [0.6017, 0.3983] };

export const API_CASES = {
  limits: {
    failing: [], cannotFail: 'a frozen object, not a function',
    good: { value: (lab) => lab.limits, expect: { maxEntries: 2 ** 24, maxMultiplyAdds: 2 ** 31, maxMultiplyAddsFloat32: 2 ** 33, maxDimension: 1e6 }, tolerance: 0 },
    fuzz: null, noFuzz: 'not a function',
  },
  learnLimits: {
    failing: [], cannotFail: 'a frozen object, not a function',
    good: { value: (lab) => lab.learnLimits, expect: { maxKeyWidth: 4096, maxSteps: 100_000 }, tolerance: 0 },
    fuzz: null, noFuzz: 'not a function',
  },
  memoryStats: {
    failing: [], cannotFail: 'takes no arguments',
    good: {
      args: () => [],
      check: (s) => assert.ok(s.mallocBytes > 0 && s.mallocBytes < s.heapBytes && s.stackPointer > 0 && Number.isInteger(s.handles), JSON.stringify(s)),
    },
    fuzz: null, noFuzz: 'takes no arguments',
  },
  attention: {
    failing: [
      { args: () => [matrix([[1, 0, 0]]), keys(), values()], message: /Q \(1x3\) and K \(3x2\) must have the same number of columns/ },
      { label: 'float32', args: () => [f32(matrix([[1, 0, 0]])), f32(keys()), f32(values())], message: /Q \(1x3\) and K \(3x2\) must have the same number of columns/ },
      // A later argument's getter grows, shrinks or detaches an earlier argument's buffer after its
      // length was checked: refused, not copied past the input area, nor a short copy that would
      // return the previous call's data.
      {
        label: 'Q grown by a getter of V', calls: 10_000,
        args: () => { const q = resizableMatrix([[1, 0]]); return [q.matrix, keys(), actingMatrix(values(), () => q.buffer.resize(64))]; },
        message: changed('Q', 16, 64),
      },
      {
        label: 'K shrunk by a getter of V', calls: 10_000,
        args: () => { const k = resizableMatrix([[1, 0], [0, 1], [1, 1]]); return [matrix([[1, 0]]), k.matrix, actingMatrix(values(), () => k.buffer.resize(16))]; },
        message: changed('K', 48, 16),
      },
      {
        label: 'Q detached by a getter of V', calls: 10_000,
        args: () => { const q = matrix([[1, 0]]); return [q, keys(), actingMatrix(values(), () => detach(q.data.buffer))]; },
        message: detachedMessage('Q'),
      },
      {
        label: 'Q in a growable SharedArrayBuffer grown by a getter of V', calls: 10_000,
        args: () => { const q = resizableMatrix([[1, 0]], true); return [q.matrix, keys(), actingMatrix(values(), () => q.buffer.grow(64))]; },
        message: changed('Q', 16, 64),
      },
      {
        // The rule is about the size, not the view: a fixed-length view whose buffer grew still
        // covers the entries that were checked, yet the caller changed its data mid-call.
        label: 'Q as a fixed-length view, its buffer grown by a getter of V', calls: 10_000,
        args: () => {
          const q = resizableMatrix([[1, 0]]);
          const fixed = { rows: 1, cols: 2, data: new Float64Array(q.buffer, 0, 2) };
          return [fixed, keys(), actingMatrix(values(), () => q.buffer.resize(24))];
        },
        message: changed('Q', 16, 24),
      },
      {
        // Re-entrant: the getter makes a whole call of its own (the same function, with the
        // pooled records of the outer call still in use), then the outer call meets a detached Q.
        label: 'a getter of V that calls attention, then detaches Q', calls: 10_000,
        args: ({ lab }) => {
          const q = matrix([[1, 0]]);
          return [q, keys(), actingMatrix(values(), () => {
            const inner = lab.attention(...worked());
            if (Math.abs(inner.weights.data[0] - 0.4011) > 5e-5) throw new Error(`the inner call gave ${inner.weights.data[0]}`);
            detach(q.data.buffer);
          })];
        },
        message: detachedMessage('Q'),
      },
      {
        label: 'a getter of V that throws',
        args: () => [matrix([[1, 0]]), keys(), Object.defineProperty({ cols: 2, data: values().data }, 'rows', { get() { throw new Error('no rows today'); } })],
        message: /^V\.rows could not be read: no rows today$/,
      },
      // Results written into the caller's arrays (options.into): checked like the inputs.
      {
        label: 'into: a Float32Array for a float64 call',
        args: () => [...worked(), { results: 'output', into: { output: new Float32Array(2) } }],
        message: /^options\.into\.output: expected a Float64Array of 1x2 = 2 entries for the output, got a Float32Array of 2 entries \(a float64 call writes Float64Arrays\)$/,
      },
      {
        label: 'into: a float32 call and a wrong length',
        args: () => [f32(matrix([[1, 0]])), f32(keys()), f32(values()), { into: { weights: new Float32Array(4) } }],
        message: /^options\.into\.weights: expected a Float32Array of 1x3 = 3 entries for the weights, got a Float32Array of 4 entries$/,
      },
      {
        label: 'into: not a typed array',
        args: () => [...worked(), { into: { output: [0, 0] } }],
        message: /^options\.into\.output: expected a Float64Array or Float32Array to write the output into, got an array of 2 entries$/,
      },
      {
        label: 'into: a result the call does not make',
        args: () => [...worked(), { results: 'output', into: { weights: new Float64Array(3) } }],
        message: /^attention: options\.into names "weights" \(with results: 'output' the call computes the output alone\); it may name output$/,
      },
      {
        label: 'into: two results in one stretch of memory',
        args: () => { const b = new ArrayBuffer(40); return [...worked(), { into: { weights: new Float64Array(b, 0, 3), output: new Float64Array(b, 16, 2) } }]; },
        message: /^options\.into\.output and options\.into\.weights share memory; each result needs an array of its own$/,
      },
      {
        label: 'into: detached by a getter of V', calls: 10_000,
        args: () => { const output = new Float64Array(2); return [matrix([[1, 0]]), keys(), actingMatrix(values(), () => detach(output.buffer)), { results: 'output', into: { output } }]; },
        message: /^options\.into\.output: its buffer was detached \(transferred\), by a later argument; nothing was written$/,
      },
      {
        label: 'into: resized by a getter of V', calls: 10_000,
        args: () => {
          const buffer = new ArrayBuffer(16, { maxByteLength: 64 });
          const output = new Float64Array(buffer);
          return [matrix([[1, 0]]), keys(), actingMatrix(values(), () => buffer.resize(64)), { results: 'output', into: { output } }];
        },
        message: /^options\.into\.output: its buffer was resized: it had 16 bytes when options\.into was read, 64 now, by a later argument; nothing was written$/,
      },
    ],
    // The four results, two of them written into the caller's arrays.
    good: { args: () => [...worked(), { into: { weights: new Float64Array(3), output: new Float64Array(2) } }], expect: WORKED, tolerance: 5e-5 },
    fuzz(f) {
      const n = f.r.int(4) + 1; const m = f.r.int(4) + 1; const d = f.r.int(4) + 1; const dv = f.r.int(3) + 1;
      // Arrays for options.into: mostly right, sometimes a wrong length or type, or one buffer for two results.
      const array = (rows, cols) => (f.r.chance(0.9) ? new Float64Array(rows * cols + (f.r.chance(0.9) ? 0 : 1)) : new Float32Array(rows * cols));
      const into = () => {
        switch (f.r.int(4)) {
          case 0: return { output: array(n, dv) };
          case 1: return { weights: array(n, m), output: array(n, dv) };
          case 2: return { rawScores: array(n, m), scaledScores: array(n, m), weights: array(n, m), output: array(n, dv) };
          default: { const b = new ArrayBuffer(8 * (n * m + n * dv)); return { weights: new Float64Array(b, 0, n * m), output: new Float64Array(b, 8 * (n * m - 1), n * dv) }; }
        }
      };
      return [f.matrixArg(n, d), f.matrixArg(m, f.r.chance(0.9) ? d : d + 1), f.matrixArg(m, dv),
        f.options(['tau', 'scale', 'mask', 'axis', 'results', 'into'], {
          tau: f.tau, scale: () => f.r.pick([0, 1, 2]), mask: f.mask(n, m), axis: () => f.r.pick(['keys', 'queries', 'key']),
          results: () => f.r.pick(['all', 'output', 'outputs']), into,
        })];
    },
  },
  streamingAttention: {
    failing: [
      { args: () => [matrix([[1, 0]]), keys(), values(), { keyTile: 0 }], message: /^options\.keyTile must be a whole number from 1 to 1000000, got 0$/ },
      { label: 'in the core', args: () => [matrix([[1, 0, 0]]), keys(), values()], message: /must have the same number of columns/ },
    ],
    good: { args: worked, expect: { 'output.data': WORKED['output.data'] }, tolerance: 5e-5 },
    fuzz(f) {
      const n = f.r.int(4) + 1; const m = f.r.int(4) + 1; const d = f.r.int(4) + 1;
      return [f.matrixArg(n, d), f.matrixArg(m, f.r.chance(0.9) ? d : d + 1), f.matrixArg(m, f.r.int(3) + 1),
        f.options(['tau', 'scale', 'mask', 'keyTile'], { tau: f.tau, scale: () => f.r.pick([0, 1, 2]), mask: f.mask(n, m), keyTile: () => f.r.pick([1, 2, 64]) })];
    },
  },
  softmax: {
    failing: [{ args: () => [matrix([[1, 2]]), { mask: matrix([[0, 0]]) }], message: /mask row 0 hides every key/ }],
    // e / (e + 1) and 1 / (e + 1)
    good: { args: () => [matrix([[1, 0]])], expect: { data: [Math.E / (Math.E + 1), 1 / (Math.E + 1)] }, tolerance: 1e-15 },
    fuzz(f) {
      const n = f.r.int(4) + 1; const m = f.r.int(4) + 1;
      return [f.matrixArg(n, m), f.options(['tau', 'mask'], { tau: f.tau, mask: f.mask(n, m) })];
    },
  },
  causalMask: {
    failing: [
      { args: () => [0], message: /causal mask rows n must be a whole number from 1 to 1000000/ },
      { label: 'too large', args: () => [3e9], message: /causal mask rows n must be a whole number from 1 to 1000000 \(lab\.limits\.maxDimension\), got 3000000000/ },
    ],
    good: { args: () => [2], expect: { data: [1, 0, 1, 1] }, tolerance: 0 },
    fuzz: (f) => [f.count(() => f.r.int(6) + 1), f.count(() => f.r.int(6) + 1)],
  },
  multiHead: {
    failing: [{ args: ({ toy }) => [toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 3], message: /heads h = 3 must divide d_model = 64/ }],
    // Head 1 of the toy sentence does "pronoun → animate": "it" (row 7) attends to "cat" (key 1).
    good: {
      args: ({ toy }) => [toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4],
      expect: { 'heads.length': 4, 'heads.1.weights.data.57': 1, 'output.rows': 8, 'output.cols': 64 }, tolerance: 1e-3,
    },
    fuzz(f) {
      const { toy } = f;
      const d = f.r.pick([toy.X.cols, 4]);
      const n = d === toy.X.cols ? toy.X.rows : f.r.int(4) + 1;
      const X = d === toy.X.cols ? toy.X : f.matrixArg(n, d);
      return [X, f.square(d), f.square(d), f.square(d), f.r.chance(0.9) ? f.square(d) : f.square(d + 1), f.count(() => f.r.pick([1, 2, 3, 4])),
        f.options(['tau', 'mask', 'scaleBy'], { tau: f.tau, mask: f.mask(n, n), scaleBy: () => f.r.pick(['head', 'model', 'models']) })];
    },
  },
  crossMultiHead: {
    failing: [
      { args: ({ toy }) => [matrix([[1, 2]]), toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1], message: /must have the same number of columns/ },
      { label: 'a mask', args: ({ toy }) => [toy.crossX, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1, { mask: 'causal' }], message: /^crossMultiHead: unknown option "mask" \(cross-attention takes no mask\); the options are tau$/ },
    ],
    // Three decoder tokens against the eight of the sentence; every row of weights sums to 1.
    good: {
      args: ({ toy }) => [toy.crossX, toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1],
      expect: { 'heads.0.weights.rows': 3, 'heads.0.weights.cols': 8, 'output.cols': 64 }, tolerance: 0,
      check: (r) => {
        for (let i = 0; i < 3; i++) {
          const sum = r.heads[0].weights.data.slice(8 * i, 8 * i + 8).reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(sum - 1) < 1e-12, `row ${i} of the weights sums to ${sum}`);
        }
      },
    },
    fuzz: (f) => [f.matrixArg(f.r.int(3) + 1, 4), f.matrixArg(f.r.int(3) + 1, 4), f.square(4), f.square(4), f.square(4), f.square(4),
      f.count(() => f.r.pick([1, 2, 4])), f.options(['tau'], { tau: f.tau })],
  },
  additiveScores: {
    failing: [
      { args: () => [matrix([[1, 0]]), keys(), matrix([[1, 0, 0]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]])], message: /W must be 2x2/ },
      {
        // The scores are 8192x1, but the hidden layer's query half Q·Wᵀ would be 8192x4096.
        label: 'Q·Wᵀ past the entry limit', calls: 2000,
        args: () => [zeros(8192, 1), zeros(1, 1), zeros(4096, 1), zeros(4096, 1), zeros(1, 4096)],
        message: /^additiveScores: Q·Wᵀ \(8192x4096\) in entries would be 33554432, more than the limit of 16777216 \(lab\.limits\.maxEntries\)$/,
      },
    ],
    // W = U = I, v = [1, 1]: e_j = tanh(q_0 + k_j0) + tanh(q_1 + k_j1).
    good: {
      args: () => [matrix([[1, 0]]), keys(), matrix([[1, 0], [0, 1]]), matrix([[1, 0], [0, 1]]), matrix([[1, 1]])],
      expect: { data: [Math.tanh(2), 2 * Math.tanh(1), Math.tanh(2) + Math.tanh(1)] }, tolerance: 1e-15,
    },
    fuzz(f) {
      const a = f.r.int(3) + 1;
      return [f.matrixArg(1, 2), f.matrixArg(3, 2), f.matrixArg(a, 2), f.matrixArg(a, 2), f.matrixArg(1, a)];
    },
  },
  rowStats: {
    failing: [{ args: () => [matrix([[0.5, NaN]])], message: /weights has a non-finite entry/ }],
    // entropy −(0.2 ln 0.2 + 0.8 ln 0.8)
    good: { args: () => [matrix([[0.2, 0.8]])], expect: { entropy: [-(0.2 * Math.log(0.2) + 0.8 * Math.log(0.8))], max: [0.8], argmax: [1] }, tolerance: 1e-15 },
    fuzz: (f) => [f.matrixArg()],
  },
  sums: {
    failing: [{ args: () => [matrix([[1, Infinity]])], message: /matrix has a non-finite entry/ }],
    good: { args: () => [matrix([[1, 2], [3, 4]])], expect: { rows: [3, 7], cols: [4, 6] }, tolerance: 0 },
    fuzz: (f) => [f.matrixArg()],
  },
  maxAbsDifference: {
    failing: [{ args: () => [matrix([[1, 2]]), matrix([[1], [2]])], message: /a \(1x2\) and b \(2x1\) must have the same shape/ }],
    good: { args: () => [matrix([[1, 2]]), matrix([[1, 5]])], expect: { '': 3 }, tolerance: 0 },
    fuzz(f) {
      const rows = f.r.int(4) + 1; const cols = f.r.int(4) + 1;
      return [f.matrixArg(rows, cols), f.r.chance(0.8) ? f.matrixArg(rows, cols) : f.matrixArg()];
    },
  },
  gradientFactor: {
    failing: [{ args: () => [{ rows: 0, cols: 2, data: new Float64Array(0) }], message: /is empty \(0x2\)/ }],
    good: { args: () => [matrix([[0.5, 0.1]])], expect: { data: [0.25, 0.09] }, tolerance: 1e-16 },
    fuzz: (f) => [f.matrixArg()],
  },
  logGradientFactor: {
    failing: [{ args: () => [matrix([[1], [2]])], message: /at least 2 columns/ }],
    // p = 1 / (1 + 3e^−64) rounds to 1, yet ln p(1 − p) = ln 3 − 64 to 1e-12.
    good: { args: () => [matrix([[64, 0, 0, 0]])], expect: { 'data.0': Math.log(3) - 64 }, tolerance: 1e-12 },
    fuzz: (f) => [f.matrixArg(f.r.int(3) + 1, f.r.int(4) + (f.r.chance(0.9) ? 2 : 0)), f.options(['tau'], { tau: f.tau })],
  },
  softmaxJacobian: {
    failing: [{ args: () => [matrix([[0.5, 0.5], [0.5, 0.5]])], message: /must be 1xm, got 2x2/ }],
    // diag(p) − p pᵀ for p = [0.2, 0.3, 0.5]
    good: { args: () => [matrix([[0.2, 0.3, 0.5]])], expect: { data: [0.16, -0.06, -0.1, -0.06, 0.21, -0.15, -0.1, -0.15, 0.25] }, tolerance: 1e-15 },
    fuzz: (f) => [f.matrixArg(f.r.chance(0.9) ? 1 : 2)],
  },
  widthExperiment: {
    failing: [
      { args: () => [{ keys: 1 }], message: /keys m must be a whole number from 2 to 4096, got 1/ },
      { label: 'over the budget', args: () => [{ keys: 4096, trials: 1e6, maxLog2: 16 }], message: /more than the limit of 50000000 \(lab\.limits\.maxExperimentWork\)/ },
    ],
    // Wider keys make the unscaled softmax sharper; 10 trials at seed 1 (the core's own numbers).
    good: {
      args: () => [{ keys: 4, maxLog2: 3, trials: 10 }],
      expect: { widths: [2, 4, 8], 'unscaled.meanMax': [0.5432, 0.6078, 0.8885], 'scaled.meanMax': [0.4673, 0.4467, 0.6387] }, tolerance: 1e-4,
    },
    fuzz: (f) => [f.options(['keys', 'maxLog2', 'trials', 'seed'], {
      keys: () => f.r.int(8) + 2, maxLog2: () => f.r.int(4) + 1, trials: () => f.r.int(20) + 1, seed: () => f.r.int(100),
    })],
  },
  cost: {
    failing: [
      { args: () => [{ n: 196, dModel: 768, heads: 5 }], message: /heads h = 5 must divide d_model = 768/ },
      { label: 'the cost figure\'s empty field', args: () => [{ n: 0, dModel: 4 }], message: /^n must be a whole number >= 1, got 0$/ },
      { label: 'not a number', args: () => [{ n: Number.NaN, dModel: 768 }], message: /^n must be a whole number >= 1, got NaN$/ },
    ],
    // n = m = 8, d = 512, h = 8: Q Kᵀ is n·m·d, the projections (2n + 2m)·d², the weights 4d².
    good: {
      args: () => [{ n: 8, dModel: 512, heads: 8 }],
      expect: { qkMacs: 8 * 8 * 512, projectionMacs: 32 * 512 * 512, parameters: 4 * 512 * 512, weightBytesPerHead: 64 * 4 }, tolerance: 0,
    },
    fuzz: (f) => [f.r.chance(0.1) ? f.r.pick(f.ODD_VALUES) : {
      n: f.count(() => f.r.int(300) + 1), dModel: f.count(() => f.r.pick([16, 64, 768])), heads: f.count(() => f.r.pick([1, 2, 4, 5])),
    }],
  },
  layerComparison: {
    failing: [{ args: () => [{ n: 196, d: 768, k: 1 }], message: /kernel width k must be a whole number >= 2, got 1/ }],
    // Table 1 at n = 196, d = 768, k = 3: n²·d, n·d², k·n·d²; O(1), O(n), O(log_k n) sequential paths.
    good: {
      args: () => [{ n: 196, d: 768 }],
      expect: { '0.complexityPerLayer': 196 * 196 * 768, '1.complexityPerLayer': 196 * 768 * 768, '2.complexityPerLayer': 3 * 196 * 768 * 768, '1.sequentialOps': 196 },
      tolerance: 0,
    },
    fuzz: (f) => [f.r.chance(0.1) ? f.r.pick(f.ODD_VALUES) : { n: f.count(() => f.r.int(300) + 1), d: f.count(() => 64), k: f.count(() => f.r.int(5) + 1) }],
  },
  toySentence: {
    failing: [], cannotFail: 'takes no arguments',
    good: { args: () => [], expect: { 'X.rows': 8, 'X.cols': 64, 'crossX.rows': 3 }, tolerance: 0, check: (t) => assert.deepEqual(t.tokens.slice(0, 2), ['the', 'cat']) },
    fuzz: null, noFuzz: 'takes no arguments',
  },
  sentenceEmbedding: {
    failing: [
      { args: () => [[]], message: /^sentenceEmbedding: tokens must be an array of 1 to 16 \{ word, features \} records, got 0 tokens$/ },
      { label: '17 tokens', args: () => [Array.from({ length: 17 }, () => ({ word: 'a', features: [] }))], message: /got 17 tokens$/ },
      { label: 'a string', args: () => ['the cat'], message: /^sentenceEmbedding: tokens must be an array .* got the string "the cat"$/ },
      { label: 'an unknown feature', args: () => [[{ word: 'ball', features: ['bouncy'] }]], message: /^sentenceEmbedding: tokens\[0\]\.features\[0\] must be one of pronoun, animate, .*; got the string "bouncy"$/ },
      { label: 'an empty word', args: () => [[{ word: '', features: [] }]], message: /^sentenceEmbedding: tokens\[0\]\.word must be a string of 1 to 100 characters/ },
      { label: 'an unknown field', args: () => [[{ word: 'a', features: [], tag: 'x' }]], message: /unknown field "tag"/ },
    ],
    // "The cat" and "the cat": case-blind words share one identity code, so the two rows' first
    // 16 columns (the code, ±¼ each) match; "cat" is animate (column 17) and "The" is not.
    good: {
      args: () => [[{ word: 'The', features: ['determiner'] }, { word: 'cat', features: ['noun', 'animate'] }, { word: 'the', features: ['determiner'] }]],
      expect: { rows: 3, cols: 64, 'data.0': 0.25, 'data.64': 0.25, 'data.65': -0.25, 'data.128': 0.25, 'data.129': 0.25, 'data.81': 1, 'data.17': 0, 'data.84': 1 },
      tolerance: 0,
    },
    fuzz: (f) => [Array.from({ length: f.r.int(16) + 1 }, () => ({ word: f.r.pick(['the', 'The', 'dog', 'it', '.']), features: f.r.pick([[], ['noun'], ['pronoun', 'animate']]) }))],
  },
  createTraining: {
    failing: [
      { args: () => [{ dk: 0 }], message: /^key width dk must be a whole number from 1 to 4096, got 0$/ },
      { label: 'a bad task', args: () => [{ task: 'copy' }], message: /^task must be 'previous' or 'match', got the string "copy"$/ },
    ],
    // Two steps of the smallest session at seed 1 (the core's own numbers): the scaled copy's
    // loss falls from 0.958 to 0.624, the unscaled copy's from 0.929 to 0.828.
    good: {
      args: () => [{ dk: 4, tokens: 2, sequences: 1 }],
      then: (session) => {
        try {
          return session.train(2);
        } finally {
          session.dispose();
        }
      },
      expect: { 'scaled.step': [0, 1], 'scaled.loss': [0.95816, 0.62419], 'unscaled.loss': [0.92890, 0.82837] }, tolerance: 1e-5,
    },
    fuzz: null, noFuzz: 'a session lives in the core until disposed: tests/js/api/training-sessions.test.mjs drives sessions',
  },
  matmul: {
    failing: [
      { args: () => [matrix([[1, 2]]), matrix([[1, 2]])], message: /A \(1x2\) and B \(1x2\) cannot be multiplied/ },
      {
        label: 'A shrunk to nothing by a getter of B', calls: 10_000,
        args: () => { const a = resizableMatrix([[1, 2]]); return [a.matrix, actingMatrix(matrix([[3], [4]]), () => a.buffer.resize(0))]; },
        message: changed('A', 16, 0),
      },
      {
        label: 'A detached by a getter of B', calls: 10_000,
        args: () => { const a = matrix([[1, 2]]); return [a, actingMatrix(matrix([[3], [4]]), () => detach(a.data.buffer))]; },
        message: detachedMessage('A'),
      },
    ],
    good: { args: () => [matrix([[1, 2]]), matrix([[3], [4]])], expect: { data: [11] }, tolerance: 0 },
    fuzz: (f) => { const k = f.r.int(4) + 1; return [f.matrixArg(f.r.int(4) + 1, k), f.matrixArg(f.r.chance(0.9) ? k : k + 1, f.r.int(4) + 1)]; },
  },
};

/** The public names, in the table's order. */
export const API_NAMES = Object.keys(API_CASES);

/** Calls lab[name] with these arguments (or reads it, when it is not a function). */
export function callApi(lab, name, args) {
  return lab[name](...args);
}

/** Every failing call of the table: [{ name, label, call: (lab, context) => …, message, calls }]. */
export function failingCalls() {
  return API_NAMES.flatMap((name) => API_CASES[name].failing.map((c) => ({
    name,
    label: c.label ? `${name} (${c.label})` : name,
    call: (lab, context) => callApi(lab, name, c.args({ ...context, lab })),
    message: c.message,
    calls: c.calls,
  })));
}

/** The value at a dotted path ('' is the value itself). */
export function valueAt(value, path) {
  return path === '' ? value : path.split('.').reduce((v, key) => v?.[key], value);
}

/** Makes the good call of `name` and checks it against its reference; returns the result. */
export function checkGood(lab, name, context) {
  const { good } = API_CASES[name];
  const raw = good.value ? good.value(lab) : callApi(lab, name, good.args(context));
  const result = good.then ? good.then(raw) : raw;
  for (const [path, expected] of Object.entries(good.expect ?? {})) {
    const actual = valueAt(result, path);
    const want = Array.isArray(expected) ? expected : [expected];
    const got = typeof actual === 'number' ? [actual] : Array.from(actual ?? [], Number);
    assert.equal(got.length, want.length, `${name}: ${path || 'the result'} has ${got.length} entries, expected ${want.length}`);
    got.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= good.tolerance,
      `${name}: ${path || 'the result'}[${i}] is ${x}, expected ${want[i]} within ${good.tolerance}`));
  }
  if (good.check) good.check(result);
  return result;
}
