// The JavaScript API of Attention Lab, and the one place where arguments are checked.
//
// The page and the tests use only this module. A matrix here is a plain object
// { rows, cols, data } with `data` a Float64Array in row-major order. Every array that
// comes back is a copy owned by the caller, never a live view of the WebAssembly heap.
//
// How a call crosses into the core (cpp/bindings/bindings.cpp, raw exports named _al_*):
//   1. Every argument is read once and checked here: types, real lengths (the typed array's
//      own length, whatever its `length` property says), shapes, options from a closed set,
//      mask entries, counts, and the work budget (LIMITS). A bad argument throws an Error
//      naming the argument, what was expected and what came, before the core is touched.
//   2. The inputs are copied once into one reused area of the WebAssembly heap, and one raw
//      export runs the core. It never throws: it returns a status, and the core's message
//      for a failure, which is thrown here as an Error.
//   3. The results are copied out once into fresh typed arrays, and the core frees them.
// So an error, however many, leaves nothing behind: not a byte of heap, not a byte of the
// WebAssembly stack, not an Embind handle (see memoryStats and tests/js/boundary.test.mjs).

/**
 * The work budget, the same numbers as cpp/core/limits.hpp (checked when the core loads).
 * A call whose matrices or work would pass them is refused before it starts.
 */
export const LIMITS = Object.freeze({
  /** Rows or columns of any one matrix. */
  maxDimension: 1_000_000,
  /** Entries of any one matrix read or made: 2^24, 128 MiB in float64 (n = m = 4096 direct). */
  maxEntries: 2 ** 24,
  /** Entries of all the matrices one call returns together: 4 · 2^24, 512 MiB in float64. */
  maxResultEntries: 4 * 2 ** 24,
  /** Multiply-adds of one call: 2^36, a few seconds at most. */
  maxMultiplyAdds: 2 ** 36,
  /** Random draws plus softmax entries of one width experiment: 10^8, about a second. */
  maxExperimentWork: 100_000_000,
  /** The largest count a JavaScript number holds exactly: 2^53. */
  maxExactCount: 2 ** 53,
});
// The order in which the core's al_limit() reports them.
const CORE_LIMITS = ['maxDimension', 'maxEntries', 'maxMultiplyAdds', 'maxExperimentWork', 'maxExactCount'];

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

// ---- describing what came, for messages --------------------------------------------------

// The typed array's own kind and length, which no redefined property can fake: these are the
// getters of %TypedArray%.prototype, called directly.
const TypedArrayPrototype = Object.getPrototypeOf(Float64Array.prototype);
const kindOf = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const realLength = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;

function describe(value) {
  try {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'undefined': return 'nothing (undefined)';
      case 'number': return String(value);
      case 'string': return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}\u2026` : value)}`;
      case 'boolean': return String(value);
      case 'bigint': return `the BigInt ${value}n`;
      case 'symbol': return 'a symbol';
      case 'function': return 'a function';
      default: break;
    }
    if (Array.isArray(value)) return `an array of ${value.length} entries`;
    const kind = kindOf.call(value);
    if (kind) return `a ${kind} of ${realLength.call(value)} entries`;
    return 'an object';
  } catch {
    return 'an unreadable value';
  }
}

function messageOf(error) {
  if (error instanceof Error) return error.message;
  return describe(error);
}

// Reads owner.key, so that a getter that throws becomes an Error naming the argument.
function read(object, key, owner) {
  try {
    return object[key];
  } catch (error) {
    throw new Error(`${owner}.${key} could not be read: ${messageOf(error)}`, { cause: error });
  }
}

// ---- the checks --------------------------------------------------------------------------

const EXACT = LIMITS.maxExactCount;
// An option left out takes its default; null is a value, and is checked like any other.
const given = (value, fallback) => (value === undefined ? fallback : value);

/** A whole number in [min, max]; the message gives the range, or the limit that was passed. */
function wholeNumber(name, value, min, max, limitNote = '') {
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  if (typeof value !== 'number') throw new Error(`${name} must be a number, got ${describe(value)}`);
  const range = max >= EXACT ? `>= ${min}` : `from ${min} to ${max}`;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ${range}, got ${describe(value)}`);
  if (value > max) {
    throw new Error(max >= EXACT
      ? `${name} must be at most 2^53 = ${max}, the largest count a JavaScript number holds exactly, got ${value}`
      : `${name} must be a whole number ${range}${limitNote}, got ${value}`);
  }
  return value;
}

const DIMENSION_NOTE = ' (lab.limits.maxDimension)';
const dimension = (name, value, min = 0) => wholeNumber(name, value, min, LIMITS.maxDimension, DIMENSION_NOTE);

/** Refuses a call whose size passes a limit, with the size it asked for and the limit. */
function budget(fn, what, amount, limitName) {
  const limit = LIMITS[limitName];
  if (amount > limit) {
    // `what` may be a function, so that its text is only built for a message.
    const text = typeof what === 'function' ? what() : what;
    throw new Error(`${fn}: ${text} would be ${amount}, more than the limit of ${limit} (lab.limits.${limitName})`);
  }
}

function entriesWithin(fn, what, rows, cols) {
  budget(fn, () => `${what} (${rows}x${cols}) in entries`, rows * cols, 'maxEntries');
}

// How a matrix's entries cross the boundary, by the type of its data. Float32Array data runs
// attention and streamingAttention in float32 (WebAssembly SIMD kernels); every other function
// takes float64 only. The copy-out goes by the element type in the result table.
const PRECISIONS = Object.freeze({
  Float64Array: Object.freeze({ name: 'float64', bytes: 8, heap: 'HEAPF64' }),
  Float32Array: Object.freeze({ name: 'float32', bytes: 4, heap: 'HEAPF32' }),
});
const ELEMENT_TYPES = ['HEAPF64', 'HEAPF32']; // the core's ElementType, as heap views
const MATRIX_SHAPE = '{ rows, cols, data: Float64Array }';
// The option names and choices of the hot calls, made once.
const ATTENTION_OPTIONS = Object.freeze(['tau', 'scale', 'mask', 'axis', 'results']);
const RESULT_SETS = Object.freeze(['all', 'output']);
const AXES = Object.freeze(['keys', 'queries']);
const MULTI_HEAD_OPTIONS = Object.freeze(['tau', 'mask', 'scaleBy']);
const HEAD_SCALES = Object.freeze(['head', 'model']);

/**
 * Reads a matrix argument once: { rows, cols, data, length, precision }, length being the
 * typed array's real length. Later code uses only this record, never the caller's object.
 */
function readMatrix(name, value, float32 = false, into = undefined) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${name}: expected ${MATRIX_SHAPE}, got ${describe(value)}`);
  }
  const rows = read(value, 'rows', name);
  const cols = read(value, 'cols', name);
  // The messages are built only when a check fails: this runs on every call.
  if (!(Number.isInteger(rows) && rows >= 0 && rows <= LIMITS.maxDimension)) dimension(`${name}.rows`, rows);
  if (!(Number.isInteger(cols) && cols >= 0 && cols <= LIMITS.maxDimension)) dimension(`${name}.cols`, cols);
  const data = read(value, 'data', name);
  const kind = (data !== null && typeof data === 'object') ? kindOf.call(data) : undefined;
  const precision = PRECISIONS[kind];
  if (!precision || (precision.name === 'float32' && !float32)) {
    const note = kind === 'Float32Array' ? ' (float32 input is taken by attention and streamingAttention only)' : '';
    throw new Error(`${name}: expected ${MATRIX_SHAPE}, got data as ${describe(data)}${note}`);
  }
  const length = realLength.call(data);
  if (rows * cols > LIMITS.maxEntries) budget(name, `a ${rows}x${cols} matrix in entries`, rows * cols, 'maxEntries');
  if (length !== rows * cols) throw new Error(`${name}: data has ${length} entries, expected ${rows}x${cols}`);
  if (into === undefined) return { rows, cols, data, length, precision, address: 0 };
  into.rows = rows;
  into.cols = cols;
  into.data = data;
  into.length = length;
  into.precision = precision;
  into.address = 0;
  return into;
}

/** Options from a closed set: an unknown name is refused, naming the ones there are. */
const NO_OPTIONS = Object.freeze({});
function readOptions(fn, options, allowed, what = 'options', example = '{ tau: 2 }') {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new Error(`${fn}: ${what} must be an object such as ${example}, got ${describe(options)}`);
  }
  let keys;
  try {
    keys = Object.keys(options);
  } catch (error) {
    throw new Error(`${fn}: ${what} could not be read: ${messageOf(error)}`, { cause: error });
  }
  const values = {};
  for (const key of keys) {
    if (!allowed.includes(key)) {
      const why = fn === 'crossMultiHead' && key === 'mask' ? ' (cross-attention takes no mask)' : '';
      throw new Error(`${fn}: unknown option ${JSON.stringify(key)}${why}; the options are ${allowed.join(', ')}`);
    }
    values[key] = read(options, key, what);
  }
  return values;
}

function temperature(value) {
  if (value === undefined) return 1;
  if (typeof value !== 'number') throw new Error(`tau: temperature must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`tau: temperature must be positive and finite, got ${value}`);
  return value;
}

function choice(name, value, choices, fallback) {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new Error(`${name} must be ${choices.map((c) => `'${c}'`).join(' or ')}, got ${describe(value)}`);
  }
  return value;
}

// The learn figure's training sessions: the same limits as cpp/core/learn/training.hpp.
const LEARN_TASKS = ['previous', 'match'];
const LEARN_LIMITS = Object.freeze({ maxKeyWidth: 4096, maxTokens: 64, maxContentWidth: 64, maxSequences: 64, maxSteps: 100_000 });
const RECORD_COLUMNS = ['step', 'loss', 'meanPOneMinusP', 'meanLargestWeight', 'gradientNormQ', 'gradientNormK', 'gradientNormV'];

function positiveRate(value) {
  if (typeof value !== 'number') throw new Error(`learning rate must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`learning rate must be positive and finite, got ${value}`);
  return value;
}

const NO_MATRIX = { rows: 0, cols: 0, data: new Float64Array(0), length: 0, precision: PRECISIONS.Float64Array, address: 0 };

// A mask is null (none), 'causal', or a matrix whose entries are exactly 0 (hidden) or 1.
const NO_MASK = Object.freeze({ kind: 0, matrix: NO_MATRIX });
const CAUSAL_MASK = Object.freeze({ kind: 1, matrix: NO_MATRIX });
function readMask(value) {
  if (value === null || value === undefined) return NO_MASK;
  if (value === 'causal') return CAUSAL_MASK;
  if (typeof value !== 'object') {
    throw new Error(`options.mask must be null, 'causal' or a matrix of 0 and 1, got ${describe(value)}`);
  }
  const mask = readMatrix('mask', value, true);
  const { data } = mask;
  for (let i = 0; i < mask.length; i++) {
    const entry = data[i];
    if (entry !== 0 && entry !== 1) {
      throw new Error(`mask: entry (${Math.floor(i / mask.cols)}, ${i % mask.cols}) is ${entry}; entries must be exactly 0 (hidden) or 1 (allowed)`);
    }
  }
  // The core reads every mask as float64 0/1, whatever the precision of the call.
  if (mask.precision.name === 'float32') {
    return { kind: 2, matrix: { ...mask, data: Float64Array.from(data), precision: PRECISIONS.Float64Array } };
  }
  return { kind: 2, matrix: mask };
}

// Q, K and V of one call share one precision: all Float64Array, or all Float32Array.
function onePrecision(fn, q, k, v) {
  if (q.precision !== k.precision || q.precision !== v.precision) {
    throw new Error(`${fn}: Q, K and V must all be Float64Array or all Float32Array, got Q ${q.precision.name}, K ${k.precision.name}, V ${v.precision.name}`);
  }
  return q.precision.name;
}

function scaleOption(value) {
  const scale = value === undefined ? 0 : value;
  if (typeof scale !== 'number' || !(scale >= 0 && scale < Infinity)) {
    throw new Error(`options.scale must be 0 (meaning √d_k) or a positive finite number, got ${describe(scale)}`);
  }
  return scale;
}

/**
 * Creates the API over an Emscripten module factory (the ES module build in the browser,
 * the CommonJS build under node). `moduleOptions` is passed to the factory, e.g.
 * { wasmBinary } under node or { locateFile } in the browser.
 */
export async function createAttentionLab(factory, moduleOptions = {}) {
  const core = await factory(moduleOptions);
  CORE_LIMITS.forEach((name, i) => {
    if (core._al_limit(i) !== LIMITS[name]) {
      throw new Error(`attention-lab.js and the core disagree on ${name}: ${LIMITS[name]} here, ${core._al_limit(i)} in cpp/core/limits.hpp`);
    }
  });
  const utf8 = new TextDecoder();

  function coreMessage() {
    const start = core._al_error_message();
    return utf8.decode(core.HEAPU8.subarray(start, start + core._al_error_length()));
  }

  /**
   * Copies the inputs (up to six; the rest undefined) into the reused input area, one after
   * another, and sets each one's address. Fixed arguments rather than a list: this runs on
   * every call, and makes no array.
   */
  function stage(a, b, c, d, e, f) {
    const bytes = padded(a) + padded(b) + padded(c) + padded(d) + padded(e) + padded(f);
    const base = core._al_input_area(bytes);
    if (base === 0) throw new Error(`out of memory: the WebAssembly heap could not make room for ${bytes} bytes of inputs`);
    let address = base;
    address = place(a, address);
    address = place(b, address);
    address = place(c, address);
    address = place(d, address);
    address = place(e, address);
    place(f, address);
  }
  // Each input starts on an 8-byte boundary, so float64 data may follow float32 data.
  function padded(input) {
    return input === undefined ? 0 : Math.ceil((input.length * input.precision.bytes) / 8) * 8;
  }
  function place(input, address) {
    if (input === undefined || input.length === 0) return address;
    // Read the heap view afresh: reserving the area may have grown the memory.
    const heap = core[input.precision.heap];
    heap.set(input.data, address / input.precision.bytes);
    input.address = address;
    return address + padded(input);
  }

  /**
   * Runs one raw export and returns its results as matrices the caller owns, or throws the
   * core's message as an Error. The core's results are freed whatever happens.
   */
  function run(call) {
    let count;
    try {
      count = call();
    } catch (error) {
      trapped(error);
    }
    try {
      opened(count);
      const results = new Array(count);
      for (let i = 0; i < count; i++) results[i] = result(i);
      return results;
    } finally {
      release();
    }
  }

  // Where the stack pointer rests between calls: nothing is outstanding then.
  const restingStack = core.stackSave();
  // Only a bug in the core can trap; put the stack back so the module stays usable.
  function trapped(error) {
    core.stackRestore(restingStack);
    release();
    throw new Error(`the WebAssembly core failed: ${messageOf(error)}`, { cause: error });
  }

  // The last call's result table (an index into HEAPU32), and its results copied out of it.
  // Results that lie end to end in the heap (every page-sized attention and multi-head call) are
  // copied in one slice, and each result is a view into that fresh buffer: one allocation per
  // call instead of one per matrix, which was most of a small call's time. The buffer belongs to
  // the caller alone; the core never sees it again.
  let table = 0;
  let block = null; // the one copy, or null when the results are apart (each then sliced alone)
  let blockStart = 0; // the byte address the copy starts at
  function opened(count) {
    if (count < 0) throw new Error(coreMessage());
    table = core._al_result_table() / 4;
    block = null;
    if (count > 1) copyAtOnce(count);
    return table;
  }
  function copyAtOnce(count) {
    const types = core.HEAPU32; // afresh: the call may have grown the memory
    const type = types[table + 3];
    const heap = core[ELEMENT_TYPES[type]];
    const bytes = heap.BYTES_PER_ELEMENT;
    let end = types[table];
    for (let entry = table; entry < table + 4 * count; entry += 4) {
      if (types[entry + 3] !== type || types[entry] !== end) return;
      end += types[entry + 1] * types[entry + 2] * bytes;
    }
    blockStart = types[table];
    block = heap.slice(blockStart / bytes, end / bytes);
  }
  function result(i) {
    const types = core.HEAPU32;
    const entry = table + 4 * i;
    const rows = types[entry + 1];
    const cols = types[entry + 2];
    const address = types[entry];
    if (block !== null) {
      return { rows, cols, data: new block.constructor(block.buffer, address - blockStart, rows * cols) };
    }
    const heap = core[ELEMENT_TYPES[types[entry + 3]]];
    const start = address / heap.BYTES_PER_ELEMENT;
    return { rows, cols, data: heap.slice(start, start + rows * cols) };
  }
  // Frees the core's results and lets go of the copy (the caller's now).
  function release() {
    block = null;
    core._al_release();
  }

  // The hot calls (attention, multi-head attention) without the closure and the list of run():
  // finish(count) opens the table and hands back the count, or releases and throws the message;
  // the caller copies its results out with result(i) and then calls release().
  function finish(count) {
    try {
      opened(count);
    } catch (error) {
      release();
      throw error;
    }
    return count;
  }

  // Records for the inputs of the hot calls, refilled on every call instead of made anew. A getter
  // in an argument may call the API again: such a nested call makes records of its own.
  let depth = 0;
  const records = Array.from({ length: 6 }, () => ({ rows: 0, cols: 0, data: null, length: 0, precision: null, address: 0 }));
  const pooled = (i) => (depth === 1 ? records[i] : undefined);
  // The callers' arrays are not held past their call.
  function forget() {
    if (depth === 0) for (let i = 0; i < records.length; i++) records[i].data = null;
  }

  // A value object (cost, layer comparison) comes back as a fresh JS object; a failure as an
  // empty one, with the core's message kept.
  function record(value) {
    if (core._al_error_length() > 0) throw new Error(coreMessage());
    return value;
  }

  // Both read the open result table; the caller releases it.
  const attentionResult = (i) => ({ rawScores: result(i), scaledScores: result(i + 1), weights: result(i + 2), output: result(i + 3) });
  function multiHeadResult(heads) {
    const list = new Array(heads);
    for (let s = 0; s < heads; s++) list[s] = attentionResult(4 * s);
    return { heads: list, concat: result(4 * heads), output: result(4 * heads + 1) };
  }

  // The multi-head export over staged inputs (self-attention passes X twice); its results copied out.
  function runMultiHead(xq, xkv, wq, wk, wv, wo, heads, tau, mask, byModelWidth) {
    const m = mask.matrix;
    let count;
    try {
      count = core._al_multi_head(
        xq.address, xq.rows, xq.cols, xkv.address, xkv.rows, xkv.cols, wq.address, wq.rows, wq.cols,
        wk.address, wk.rows, wk.cols, wv.address, wv.rows, wv.cols, wo.address, wo.rows, wo.cols,
        heads, tau, mask.kind, m.address, m.rows, m.cols, byModelWidth);
    } catch (error) {
      trapped(error);
    }
    finish(count);
    const out = multiHeadResult(heads);
    release();
    return out;
  }

  function multiHeadBudget(fn, xq, xkv, heads) {
    const n = xq.rows;
    const m = xkv.rows;
    const d = xq.cols;
    entriesWithin(fn, 'each head\'s scores', n, m);
    budget(fn, () => `the results of ${heads} heads of ${n}x${m} scores in entries`, 3 * heads * n * m + 3 * n * d, 'maxResultEntries');
    budget(fn, 'the multiply-adds', (2 * n + 2 * m) * d * d + 2 * n * m * d, 'maxMultiplyAdds');
  }

  // A training session's records, one row per step, as one typed array per column.
  function curves(m) {
    const column = (c) => {
      const out = new Float64Array(m.rows);
      for (let i = 0; i < m.rows; i++) out[i] = m.data[i * m.cols + c];
      return out;
    };
    const out = {};
    RECORD_COLUMNS.forEach((name, c) => { out[name] = column(c); });
    return out;
  }
  const recordAt = (m, i) => Object.fromEntries(RECORD_COLUMNS.map((name, c) => [name, m.data[i * m.cols + c]]));

  function trainingSession(id, settings) {
    let alive = true;
    let steps = 0; // updates taken by the copy that has taken the most
    const live = (fn) => {
      if (!alive) throw new Error(`${fn}: this training session has been disposed`);
    };
    return Object.freeze({
      /** The settings it was created with (the learning rate may have changed since: see state()). */
      settings: Object.freeze({ ...settings }),

      /**
       * Takes `steps` SGD steps of both copies (1 to 100,000 in a session, within the work
       * budget). Returns { scaled, unscaled }, each { step, loss, meanPOneMinusP,
       * meanLargestWeight, gradientNormQ, gradientNormK, gradientNormV } as Float64Arrays with one
       * entry per step, measured before that step's update. A copy that diverged takes no more steps.
       */
      train(count) {
        live('train');
        const n = wholeNumber('steps', count, 1, LEARN_LIMITS.maxSteps);
        if (steps + n > LEARN_LIMITS.maxSteps) {
          throw new Error(`train: steps ${n} would take the session past ${LEARN_LIMITS.maxSteps} steps (${steps} taken); reset it first`);
        }
        budget('train', () => `the multiply-adds of ${n} steps`, n * settings.stepWork, 'maxMultiplyAdds');
        const [scaled, unscaled] = run(() => core._al_learn_train(id, n));
        steps += n;
        return { scaled: curves(scaled), unscaled: curves(unscaled) };
      },

      /** Sets the learning rate from the next step on; the weights and curves are kept. */
      setLearningRate(rate) {
        live('setLearningRate');
        const value = positiveRate(rate);
        run(() => core._al_learn_set_learning_rate(id, value));
      },

      /** Back to step 0 and the very same initial weights (no new draw); keeps the learning rate. */
      reset() {
        live('reset');
        run(() => core._al_learn_reset(id));
        steps = 0;
      },

      /**
       * Now: { scaled, unscaled }, each { weights (n×m matrix of one training sequence), steps,
       * diverged, current (with options.measure: the record at the current weights, or null) },
       * plus answers (the right key of each query) and learningRate. options: sequence (default 0),
       * measure (default false: it costs as much as one step).
       */
      state(options) {
        live('state');
        const o = readOptions('state', options, ['sequence', 'measure'], 'options', '{ measure: true }');
        const sequence = wholeNumber('sequence', given(o.sequence, 0), 0, settings.sequences - 1);
        const measure = given(o.measure, false);
        if (typeof measure !== 'boolean') throw new Error(`options.measure must be true or false, got ${describe(measure)}`);
        const [scaledWeights, unscaledWeights, answers, status, now] =
          run(() => core._al_learn_state(id, sequence, measure ? 1 : 0));
        const copy = (weights, index) => ({
          weights,
          steps: status.data[index],
          diverged: status.data[2 + index] === 1,
          current: measure ? recordAt(now, index) : null,
        });
        return {
          scaled: copy(scaledWeights, 0),
          unscaled: copy(unscaledWeights, 1),
          answers: answers.data,
          learningRate: status.data[4],
        };
      },

      /** Every record so far: { scaled, unscaled } in the form train() returns. */
      history() {
        live('history');
        const [scaled, unscaled] = run(() => core._al_learn_history(id));
        return { scaled: curves(scaled), unscaled: curves(unscaled) };
      },

      /** Frees the session in the core; any later call on it throws. Calling it twice is harmless. */
      dispose() {
        if (!alive) return;
        alive = false;
        run(() => core._al_learn_dispose(id));
      },
    });
  }

  let toy = null; // the toy sentence, fetched once; every caller gets copies

  const api = {
    /** The work budget; a call over it is refused before it starts. */
    limits: LIMITS,
    /** The largest training session createTraining accepts (cpp/core/learn/training.hpp). */
    learnLimits: LEARN_LIMITS,

    /**
     * What the WebAssembly module holds right now: { heapBytes (the memory's size, which
     * never shrinks), mallocBytes (heap in use, back to its size after every call),
     * stackPointer, handles (live Embind handles) }. For leak tests.
     */
    memoryStats() {
      return {
        heapBytes: core.HEAPU8.byteLength,
        mallocBytes: core._al_malloc_in_use(),
        stackPointer: core.stackSave(),
        handles: core.count_emval_handles(),
      };
    },

    /**
     * softmax(Q Kᵀ / (τ·scale)) V. Options: tau (temperature, default 1), scale (divisor,
     * default 0 = √d_k), mask (null | 'causal' | 0/1 matrix), axis ('keys' the right one, or
     * 'queries' to normalise the columns, a common mistake shown on the page), results ('all',
     * or 'output' for the output alone, as a layer would use it: in float32 the n×m scores are
     * then formed once, in place, and never copied out).
     * Returns { rawScores, scaledScores, weights, output }, or { output }. Q, K, V with
     * Float32Array data run in float32 (WebAssembly SIMD, within 1e-5 of float64) and return
     * Float32Arrays. The matrices of one call may share one fresh ArrayBuffer, the caller's alone.
     */
    attention(Q, K, V, options) {
      depth++;
      try {
        const o = readOptions('attention', options, ATTENTION_OPTIONS);
        const tau = temperature(o.tau);
        const scale = scaleOption(o.scale);
        const axis = choice('options.axis', o.axis, AXES, 'keys');
        const outputOnly = choice('options.results', o.results, RESULT_SETS, 'all') === 'output';
        const q = readMatrix('Q', Q, true, pooled(0));
        const k = readMatrix('K', K, true, pooled(1));
        const v = readMatrix('V', V, true, pooled(2));
        const precision = onePrecision('attention', q, k, v);
        const mask = readMask(o.mask);
        entriesWithin('attention', 'the scores Q Kᵀ', q.rows, k.rows);
        budget('attention', 'the multiply-adds', q.rows * k.rows * (q.cols + v.cols), 'maxMultiplyAdds');
        const m = mask.matrix;
        stage(q, k, v, m);
        const exported = precision === 'float32' ? core._al_attention_f32 : core._al_attention;
        let count;
        try {
          count = exported(q.address, q.rows, q.cols, k.address, k.rows, k.cols, v.address, v.rows, v.cols,
            tau, scale, mask.kind, m.address, m.rows, m.cols, axis === 'queries' ? 1 : 0, outputOnly ? 1 : 0);
        } catch (error) {
          trapped(error);
        }
        finish(count);
        const out = outputOnly ? { output: result(0) } : attentionResult(0);
        release();
        return out;
      } finally {
        depth--;
        forget();
      }
    },

    /**
     * The same output, softmax(Q Kᵀ / (τ·scale)) V, by an online softmax over tiles of keys that
     * never forms the n×m scores: memory O((n + m)·d), so n and m may pass the direct form's
     * limit (16,384 tokens and more). Options: tau, scale, mask (null | 'causal' | 0/1 matrix),
     * keyTile (keys per tile, default 64). Float32Array inputs run in float32. Returns { output }.
     */
    streamingAttention(Q, K, V, options) {
      const o = readOptions('streamingAttention', options, ['tau', 'scale', 'mask', 'keyTile']);
      const tau = temperature(o.tau);
      const scale = scaleOption(o.scale);
      const keyTile = o.keyTile === undefined ? 0 : wholeNumber('options.keyTile', o.keyTile, 1, LIMITS.maxDimension);
      const q = readMatrix('Q', Q, true);
      const k = readMatrix('K', K, true);
      const v = readMatrix('V', V, true);
      const precision = onePrecision('streamingAttention', q, k, v);
      const mask = readMask(o.mask);
      budget('streamingAttention', 'the multiply-adds', q.rows * k.rows * (q.cols + v.cols), 'maxMultiplyAdds');
      stage(q, k, v, mask.matrix);
      const m = mask.matrix;
      const exported = precision === 'float32' ? core._al_streaming_attention_f32 : core._al_streaming_attention;
      const [output] = run(() => exported(
        q.address, q.rows, q.cols, k.address, k.rows, k.cols, v.address, v.rows, v.cols,
        tau, scale, mask.kind, m.address, m.rows, m.cols, keyTile));
      return { output };
    },

    /** Row-wise softmax of logits / tau, with an optional mask (options: tau, mask). */
    softmax(logits, options) {
      const o = readOptions('softmax', options, ['tau', 'mask']);
      const tau = temperature(o.tau);
      const l = readMatrix('logits', logits);
      const mask = readMask(o.mask);
      stage(l, mask.matrix);
      const m = mask.matrix;
      return run(() => core._al_softmax(l.address, l.rows, l.cols, tau, mask.kind, m.address, m.rows, m.cols))[0];
    },

    /** The n×m causal mask as a 0/1 matrix (1 where key j ≤ query i). */
    causalMask(n, m = n) {
      dimension('causal mask rows n', n, 1);
      dimension('causal mask columns m', m, 1);
      entriesWithin('causalMask', 'the mask', n, m);
      return run(() => core._al_causal_mask(n, m))[0];
    },

    /**
     * Multi-head self-attention of X (n×d_model) with square W_Q, W_K, W_V, W_O and h heads.
     * Options: tau, mask, scaleBy ('head' = √(d_model/h), the right one, or 'model' = √d_model).
     * Returns { heads: [{ rawScores, scaledScores, weights, output }], concat, output }.
     */
    multiHead(X, WQ, WK, WV, WO, h, options) {
      depth++;
      try {
        const o = readOptions('multiHead', options, MULTI_HEAD_OPTIONS);
        const tau = temperature(o.tau);
        const scaleBy = choice('options.scaleBy', o.scaleBy, HEAD_SCALES, 'head');
        const x = readMatrix('X', X, false, pooled(0));
        const wq = readMatrix('W_Q', WQ, false, pooled(1));
        const wk = readMatrix('W_K', WK, false, pooled(2));
        const wv = readMatrix('W_V', WV, false, pooled(3));
        const wo = readMatrix('W_O', WO, false, pooled(4));
        const heads = dimension('heads h', h, 1);
        const mask = readMask(o.mask);
        multiHeadBudget('multiHead', x, x, heads);
        const m = mask.matrix;
        stage(x, wq, wk, wv, wo, m);
        return runMultiHead(x, x, wq, wk, wv, wo, heads, tau, mask, scaleBy === 'model' ? 1 : 0);
      } finally {
        depth--;
        forget();
      }
    },

    /** Cross-attention: queries from Xq (n×d), keys and values from Xkv (m×d), h heads. Options: tau. */
    crossMultiHead(Xq, Xkv, WQ, WK, WV, WO, h, options) {
      const o = readOptions('crossMultiHead', options, ['tau']);
      const tau = temperature(o.tau);
      const xq = readMatrix('Xq', Xq);
      const xkv = readMatrix('Xkv', Xkv);
      const wq = readMatrix('W_Q', WQ);
      const wk = readMatrix('W_K', WK);
      const wv = readMatrix('W_V', WV);
      const wo = readMatrix('W_O', WO);
      const heads = dimension('heads h', h, 1);
      multiHeadBudget('crossMultiHead', xq, xkv, heads);
      stage(xq, xkv, wq, wk, wv, wo);
      return runMultiHead(xq, xkv, wq, wk, wv, wo, heads, tau, NO_MASK, 0);
    },

    /** Additive (Bahdanau) scores e_ij = vᵀ tanh(W q_i + U k_j); v is a 1×d_a matrix. */
    additiveScores(Q, K, W, U, v) {
      const q = readMatrix('Q', Q);
      const k = readMatrix('K', K);
      const w = readMatrix('W', W);
      const u = readMatrix('U', U);
      const vr = readMatrix('v', v);
      entriesWithin('additiveScores', 'the scores', q.rows, k.rows);
      budget('additiveScores', 'the multiply-adds', q.rows * k.rows * vr.cols + (q.rows * q.cols + k.rows * k.cols) * vr.cols, 'maxMultiplyAdds');
      stage(q, k, w, u, vr);
      return run(() => core._al_additive_scores(q.address, q.rows, q.cols, k.address, k.rows, k.cols,
        w.address, w.rows, w.cols, u.address, u.rows, u.cols, vr.address, vr.rows, vr.cols))[0];
    },

    /** Per-row entropy (nats), largest weight and its index: { entropy, max, argmax } arrays. */
    rowStats(weights) {
      const w = readMatrix('weights', weights);
      stage(w);
      const [entropy, max, argmax] = run(() => core._al_row_stats(w.address, w.rows, w.cols));
      return { entropy: entropy.data, max: max.data, argmax: argmax.data };
    },

    /** The sum of every row and of every column: { rows, cols } Float64Arrays. */
    sums(m) {
      const a = readMatrix('matrix', m);
      stage(a);
      const [rows, cols] = run(() => core._al_sums(a.address, a.rows, a.cols));
      return { rows: rows.data, cols: cols.data };
    },

    /** max |a_ij − b_ij| over two matrices of the same shape (0 for S against Sᵀ when S is symmetric). */
    maxAbsDifference(a, b) {
      const x = readMatrix('a', a);
      const y = readMatrix('b', b);
      stage(x, y);
      return run(() => core._al_max_abs_difference(x.address, x.rows, x.cols, y.address, y.rows, y.cols))[0].data[0];
    },

    /** The softmax gradient factor p(1−p), element-wise over a 1-row or any matrix. */
    gradientFactor(p) {
      const x = readMatrix('p', p);
      stage(x);
      return run(() => core._al_gradient_factor(x.address, x.rows, x.cols))[0];
    },

    /**
     * ln(p(1−p)) for p = softmax(scores / tau), element-wise, computed from the scores in log
     * space: right where p rounds to 1 and gradientFactor(p) would be exactly 0. Rows need two
     * or more keys. Options: tau.
     */
    logGradientFactor(scores, options) {
      const o = readOptions('logGradientFactor', options, ['tau']);
      const tau = temperature(o.tau);
      const s = readMatrix('scores', scores);
      stage(s);
      return run(() => core._al_log_gradient_factor(s.address, s.rows, s.cols, tau))[0];
    },

    /** The full softmax Jacobian diag(p) − p pᵀ of one probability row (1×m). */
    softmaxJacobian(p) {
      const x = readMatrix('p', p);
      entriesWithin('softmaxJacobian', 'the Jacobian', x.cols, x.cols);
      stage(x);
      return run(() => core._al_softmax_jacobian(x.address, x.rows, x.cols))[0];
    },

    /**
     * The "why divide by √d_k" experiment: widths d_k = 2^minLog2 … 2^maxLog2 (minLog2 = 1 by
     * default), `trials` random
     * N(0,1) queries against `keys` keys each. Returns { widths, unscaled: { meanMax,
     * meanEntropy }, scaled: { meanMax, meanEntropy } }, arrays indexed like widths.
     */
    widthExperiment(setup) {
      const o = readOptions('widthExperiment', setup, ['keys', 'minLog2', 'maxLog2', 'trials', 'seed'], 'the setup', '{ keys: 10, trials: 2000 }');
      const keys = wholeNumber('keys m', given(o.keys, 10), 2, 4096);
      const maxLog2 = wholeNumber('maxLog2', given(o.maxLog2, 10), 1, 16);
      // Each width has its own random stream: any range of widths gives the full run's numbers there.
      const minLog2 = wholeNumber('minLog2', given(o.minLog2, 1), 1, maxLog2);
      const trials = wholeNumber('trials T', given(o.trials, 2000), 1, 1_000_000);
      const seed = wholeNumber('seed', given(o.seed, 1), 0, Number.MAX_SAFE_INTEGER);
      // Per width and trial: m normal draws for the scores and two softmax summaries of m entries.
      const widthCount = maxLog2 - minLog2 + 1;
      budget('widthExperiment', () => `the work (widths · trials · 3 · keys = ${widthCount} · ${trials} · 3 · ${keys})`,
        widthCount * trials * 3 * keys, 'maxExperimentWork');
      const [widths, maxUnscaled, entropyUnscaled, maxScaled, entropyScaled] =
        run(() => core._al_width_experiment(keys, minLog2, maxLog2, trials, seed));
      return {
        widths: widths.data,
        unscaled: { meanMax: maxUnscaled.data, meanEntropy: entropyUnscaled.data },
        scaled: { meanMax: maxScaled.data, meanEntropy: entropyScaled.data },
      };
    },

    /**
     * Cost of one attention layer: n queries, m keys, width dModel, h heads, bytes per number.
     * Every count is a whole number from 1 to 2^53. Returns { qkMacs, avMacs, projectionMacs,
     * weightNumbersPerHead, weightBytesPerHead, weightBytesAllHeads, projectionParameters,
     * outputParameters, parameters, parameterBytes }.
     */
    cost(setup) {
      const o = readOptions('cost', setup, ['n', 'm', 'dModel', 'heads', 'bytesPerNumber'], 'the setup', '{ n: 8, dModel: 16 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const m = wholeNumber('m', given(o.m, n), 1, EXACT);
      const dModel = wholeNumber('d_model', o.dModel, 1, EXACT);
      const heads = wholeNumber('heads h', given(o.heads, 1), 1, EXACT);
      const bytes = wholeNumber('bytes per number', given(o.bytesPerNumber, 4), 1, EXACT);
      return record(core._al_cost(n, m, dModel, heads, bytes));
    },

    /**
     * Table 1 of the paper (first three rows) evaluated at length n, width d, kernel k:
     * [{ layer, complexityPerLayer, sequentialOps, maxPathLength }].
     */
    layerComparison(setup) {
      const o = readOptions('layerComparison', setup, ['n', 'd', 'k'], 'the setup', '{ n: 196, d: 768 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const d = wholeNumber('d', o.d, 1, EXACT);
      const k = wholeNumber('kernel width k', given(o.k, 3), 2, EXACT);
      return record(core._al_layer_comparison(n, d, k));
    },

    /**
     * The toy eight-token sentence "the cat sat on the mat because it": { tokens, features,
     * X, WQ, WK, WV, WO }, plus the decoder sentence for cross-attention: { crossTokens, crossX }.
     */
    toySentence() {
      toy ??= core._al_toy_sentence();
      const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
      return {
        tokens: [...toy.tokens], features: [...toy.features],
        X: copy(toy.X), WQ: copy(toy.WQ), WK: copy(toy.WK), WV: copy(toy.WV), WO: copy(toy.WO),
        crossTokens: [...toy.crossTokens], crossX: copy(toy.crossX),
        headJobs: [...toy.headJobs],
      };
    },

    /**
     * A training session for the learn figure: two copies of one attention head (scores divided
     * by √d_k, and not) trained side by side by plain SGD from one seed, on a task whose loss is
     * the squared error of the head's outputs. Settings (all optional): task ('previous': each
     * token fetches the previous token's content; 'match': each query fetches the content of the
     * key of its hidden type), dk (1–4096, default 64), tokens n (2–64, default 8), contentWidth
     * (1–64, default 4), sequences (1–64, default 16), learningRate (default 0.5), seed (default 1).
     * Returns a session: train(steps), setLearningRate(rate), reset(), state(options), history(),
     * dispose(). At most 16 sessions live at once: dispose of the ones you are done with.
     */
    createTraining(settings) {
      const o = readOptions('createTraining', settings,
        ['task', 'dk', 'tokens', 'contentWidth', 'sequences', 'learningRate', 'seed'], 'the settings', "{ task: 'previous', dk: 256 }");
      const task = choice('task', o.task, LEARN_TASKS, 'previous');
      const dk = wholeNumber('key width dk', given(o.dk, 64), 1, LEARN_LIMITS.maxKeyWidth);
      const tokens = wholeNumber('tokens n', given(o.tokens, 8), 2, LEARN_LIMITS.maxTokens);
      const contentWidth = wholeNumber('content width', given(o.contentWidth, 4), 1, LEARN_LIMITS.maxContentWidth);
      const sequences = wholeNumber('sequences', given(o.sequences, 16), 1, LEARN_LIMITS.maxSequences);
      const learningRate = positiveRate(given(o.learningRate, 0.5));
      const seed = wholeNumber('seed', given(o.seed, 1), 0, Number.MAX_SAFE_INTEGER);
      const stepWork = core._al_learn_step_work(dk, tokens, contentWidth, sequences);
      budget('createTraining', 'the multiply-adds of one step', stepWork, 'maxMultiplyAdds');
      const id = run(() => core._al_learn_create(LEARN_TASKS.indexOf(task), dk, tokens, contentWidth, sequences,
        learningRate, seed))[0].data[0];
      return trainingSession(id, { task, dk, tokens, contentWidth, sequences, seed, stepWork });
    },

    /** Matrix product A·B (for the Q = X W_Q step of the page). */
    matmul(A, B) {
      const a = readMatrix('A', A);
      const b = readMatrix('B', B);
      entriesWithin('matmul', 'the product', a.rows, b.cols);
      budget('matmul', 'the multiply-adds', a.rows * a.cols * b.cols, 'maxMultiplyAdds');
      stage(a, b);
      return run(() => core._al_matmul(a.address, a.rows, a.cols, b.address, b.rows, b.cols))[0];
    },
  };
  return api;
}
