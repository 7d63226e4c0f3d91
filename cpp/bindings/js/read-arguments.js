// Reading and checking the JS API's arguments: every argument is read once (a getter that
// throws becomes an Error naming the argument), and checked before the core is touched: types,
// real lengths (the typed array's own length, whatever its `length` property says), shapes,
// options from a closed set, mask entries, counts, and the work budget (LIMITS). A bad argument
// throws an Error naming the argument, what was expected and what came.

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
  /**
   * Multiply-adds of one float64 call: 2^31, so that the slowest accepted call of each kind takes
   * about a second (direct attention and multi-head also count PAIR_WORK for each pair they
   * return, additive scores and training steps their own weights; see cpp/core/limits.hpp).
   */
  maxMultiplyAdds: 2 ** 31,
  /** Multiply-adds of one float32 call (attention, streamingAttention): 2^33, about a second. */
  maxMultiplyAddsFloat32: 2 ** 33,
  /** Random draws plus softmax entries of one width experiment: 5·10^7, about a second at most. */
  maxExperimentWork: 50_000_000,
  /** The largest count a JavaScript number holds exactly: 2^53. */
  maxExactCount: 2 ** 53,
});
// The order in which the core's al_limit() reports them.
export const CORE_LIMITS = ['maxDimension', 'maxEntries', 'maxMultiplyAdds', 'maxExperimentWork', 'maxExactCount', 'maxMultiplyAddsFloat32'];

// ---- the built-ins the snapshot rule relies on, captured when this module loads -------------
// A caller's code could replace a prototype's method or getter later (Float64Array.prototype.set,
// the length getter …); these are the originals, called directly, so that no redefined property
// can fake a kind, a length or a size, nor run the caller's code in the middle of a copy.
const TypedArrayPrototype = Object.getPrototypeOf(Float64Array.prototype);
const getter = (prototype, key) => Object.getOwnPropertyDescriptor(prototype, key)?.get;
// method(self, …args) for method.call(self, …args), bound now: a later Function.prototype.call
// of the caller's changes nothing here.
const uncurry = (method) => Function.prototype.call.bind(method);
const kindOf = uncurry(getter(TypedArrayPrototype, Symbol.toStringTag));
const realLength = uncurry(getter(TypedArrayPrototype, 'length'));
const bufferOf = uncurry(getter(TypedArrayPrototype, 'buffer'));
const byteOffsetOf = uncurry(getter(TypedArrayPrototype, 'byteOffset'));
/** %TypedArray%.prototype.set: copies a typed array's entries, converting them, with no iterator. */
export const copyInto = uncurry(TypedArrayPrototype.set);
const arrayBufferBytes = uncurry(getter(ArrayBuffer.prototype, 'byteLength'));
const maxBytes = getter(ArrayBuffer.prototype, 'maxByteLength');
const arrayBufferMaxBytes = maxBytes === undefined ? undefined : uncurry(maxBytes);
// A page that is not cross-origin isolated may have no SharedArrayBuffer at all.
const sharedBufferBytes = globalThis.SharedArrayBuffer ? uncurry(getter(SharedArrayBuffer.prototype, 'byteLength')) : null;
// The constructors of the fixed-length views made of each argument's data.
const VIEWS = Object.freeze({ Float64Array, Float32Array });

// The byte length of an ArrayBuffer or a SharedArrayBuffer, and the getter that read it.
function bytesGetterOf(buffer) {
  try {
    arrayBufferBytes(buffer);
    return arrayBufferBytes;
  } catch {
    return sharedBufferBytes; // the one other kind of buffer a typed array can have
  }
}
// A detached ArrayBuffer reports 0 for both its size and its largest size; one resized to nothing
// keeps its largest size. (A SharedArrayBuffer, for which these getters throw, cannot be detached.)
function detached(buffer) {
  try {
    return arrayBufferBytes(buffer) === 0 && (arrayBufferMaxBytes === undefined || arrayBufferMaxBytes(buffer) === 0);
  } catch {
    return false;
  }
}

// ---- describing what came, for messages --------------------------------------------------

export function describe(value) {
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
    const kind = kindOf(value);
    if (kind) return `a ${kind} of ${realLength(value)} entries`;
    return 'an object';
  } catch {
    return 'an unreadable value';
  }
}

export function messageOf(error) {
  if (error instanceof Error) return error.message;
  return describe(error);
}

// Reads owner.key, so that a getter that throws becomes an Error naming the argument.
export function read(object, key, owner) {
  try {
    return object[key];
  } catch (error) {
    throw new Error(`${owner}.${key} could not be read: ${messageOf(error)}`, { cause: error });
  }
}

// ---- the checks --------------------------------------------------------------------------

export const EXACT = LIMITS.maxExactCount;
// An option left out takes its default; null is a value, and is checked like any other.
export const given = (value, fallback) => (value === undefined ? fallback : value);

/** A whole number in [min, max]; the message gives the range, or the limit that was passed. */
export function wholeNumber(name, value, min, max, limitNote = '') {
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
export const dimension = (name, value, min = 0) => wholeNumber(name, value, min, LIMITS.maxDimension, DIMENSION_NOTE);

/** Refuses a call whose size passes a limit, with the size it asked for and the limit. */
export function budget(fn, what, amount, limitName) {
  const limit = LIMITS[limitName];
  if (amount > limit) {
    // `what` may be a function, so that its text is only built for a message.
    const text = typeof what === 'function' ? what() : what;
    throw new Error(`${fn}: ${text} would be ${amount}, more than the limit of ${limit} (lab.limits.${limitName})`);
  }
}

/**
 * What each pair (i, j) of the direct form or of one head counts beside its dot products: its
 * score, scaled score and weight are formed, exponentiated and copied out (kPairWork in
 * cpp/core/limits.hpp).
 */
export const PAIR_WORK = 384;

/** Refuses a call of `amount` multiply-adds past the limit of its precision ('float64' or 'float32'). */
export function multiplyAdds(fn, amount, precision) {
  budget(fn, 'the multiply-adds', amount, precision === 'float32' ? 'maxMultiplyAddsFloat32' : 'maxMultiplyAdds');
}

export function entriesWithin(fn, what, rows, cols) {
  budget(fn, () => `${what} (${rows}x${cols}) in entries`, rows * cols, 'maxEntries');
}

// How a matrix's entries cross the boundary, by the type of its data. Float32Array data runs
// attention and streamingAttention in float32 (WebAssembly SIMD kernels); every other function
// takes float64 only. The copy-out goes by the element type in the result table.
export const PRECISIONS = Object.freeze({
  Float64Array: Object.freeze({ name: 'float64', bytes: 8, heap: 'HEAPF64' }),
  Float32Array: Object.freeze({ name: 'float32', bytes: 4, heap: 'HEAPF32' }),
});
export const ELEMENT_TYPES = ['HEAPF64', 'HEAPF32']; // the core's ElementType, as heap views
const MATRIX_SHAPE = '{ rows, cols, data: Float64Array }';
// The option names and choices of the hot calls, made once.
export const ATTENTION_OPTIONS = Object.freeze(['tau', 'scale', 'mask', 'axis', 'results']);
export const RESULT_SETS = Object.freeze(['all', 'output']);
export const AXES = Object.freeze(['keys', 'queries']);
export const MULTI_HEAD_OPTIONS = Object.freeze(['tau', 'mask', 'scaleBy']);
export const HEAD_SCALES = Object.freeze(['head', 'model']);

/**
 * Reads a matrix argument once: { name, rows, cols, data, length, precision, address, buffer,
 * bytes, bytesOf }. `data` is not the caller's typed array but a fixed-length view of its
 * buffer, made here with the saved constructor over the entries that were read and checked
 * (`length` of them, from the caller's byte offset); `buffer` is that buffer and `bytes` its
 * byte length then, read by `bytesOf` (the saved getter of its kind). Later code uses only this
 * record, never the caller's object, and the copy into the heap first checks that nothing of
 * this changed (unchanged()), since a getter of a later argument may grow, shrink or detach the
 * buffer in between.
 */
export function readMatrix(name, value, float32 = false, into = undefined) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${name}: expected ${MATRIX_SHAPE}, got ${describe(value)}`);
  }
  const rows = read(value, 'rows', name);
  const cols = read(value, 'cols', name);
  // The messages are built only when a check fails: this runs on every call.
  if (!(Number.isInteger(rows) && rows >= 0 && rows <= LIMITS.maxDimension)) dimension(`${name}.rows`, rows);
  if (!(Number.isInteger(cols) && cols >= 0 && cols <= LIMITS.maxDimension)) dimension(`${name}.cols`, cols);
  const data = read(value, 'data', name);
  // From here on no code of the caller's runs: only the saved built-ins.
  const kind = (data !== null && typeof data === 'object') ? kindOf(data) : undefined;
  const precision = PRECISIONS[kind];
  if (!precision || (precision.name === 'float32' && !float32)) {
    const note = kind === 'Float32Array' ? ' (float32 input is taken by attention and streamingAttention only)' : '';
    throw new Error(`${name}: expected ${MATRIX_SHAPE}, got data as ${describe(data)}${note}`);
  }
  const length = realLength(data);
  if (rows * cols > LIMITS.maxEntries) budget(name, `a ${rows}x${cols} matrix in entries`, rows * cols, 'maxEntries');
  if (length !== rows * cols) throw new Error(`${name}: data has ${length} entries, expected ${rows}x${cols}`);
  const record = into ?? { name, rows, cols, data: null, length, precision, address: 0, buffer: null, bytes: 0, bytesOf: null };
  record.name = name;
  record.rows = rows;
  record.cols = cols;
  record.length = length;
  record.precision = precision;
  record.address = 0;
  if (length === 0) {
    // Nothing to copy (its buffer may even be detached already): no view, nothing to re-check.
    record.data = EMPTY[precision.name];
    record.buffer = null;
    record.bytes = 0;
    record.bytesOf = null;
    return record;
  }
  const buffer = bufferOf(data);
  record.bytesOf = bytesGetterOf(buffer);
  record.bytes = record.bytesOf(buffer);
  record.buffer = buffer;
  record.data = new VIEWS[kind](buffer, byteOffsetOf(data), length);
  return record;
}
const EMPTY = Object.freeze({ float64: new Float64Array(0), float32: new Float32Array(0) });

/**
 * Whether a read matrix's data is still as it was read and checked: its buffer has the byte
 * length it had then, and the fixed view still covers its entries. Called right before the
 * copy, with no caller's code in between, so the copy reads exactly the checked entries. Any
 * change of size between the read and the copy (grown, shrunk, detached, a growable
 * SharedArrayBuffer grown), even one undone before the copy leaves its size as it was read,
 * means the caller changed its data while the call was reading it: refused.
 */
export function unchanged(input) {
  return input.buffer === null || (input.bytesOf(input.buffer) === input.bytes && realLength(input.data) === input.length);
}

/** The Error for a read matrix whose data's buffer changed size since it was read. */
export function changedError(input) {
  const now = input.bytesOf(input.buffer);
  const what = now === 0 && detached(input.buffer)
    ? 'was detached (transferred)'
    : `was resized: it had ${input.bytes} bytes when ${input.name} was read, ${now} now`;
  return new Error(`${input.name}: the buffer of its data ${what}, by a later argument; nothing was computed`);
}

/** Options from a closed set: an unknown name is refused, naming the ones there are. */
const NO_OPTIONS = Object.freeze({});
export function readOptions(fn, options, allowed, what = 'options', example = '{ tau: 2 }') {
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

export function temperature(value) {
  if (value === undefined) return 1;
  if (typeof value !== 'number') throw new Error(`tau: temperature must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`tau: temperature must be positive and finite, got ${value}`);
  return value;
}

export function choice(name, value, choices, fallback) {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new Error(`${name} must be ${choices.map((c) => `'${c}'`).join(' or ')}, got ${describe(value)}`);
  }
  return value;
}

export function positiveRate(value) {
  if (typeof value !== 'number') throw new Error(`learning rate must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`learning rate must be positive and finite, got ${value}`);
  return value;
}

export const NO_MATRIX = {
  name: 'no matrix', rows: 0, cols: 0, data: EMPTY.float64, length: 0, precision: PRECISIONS.Float64Array, address: 0, buffer: null, bytes: 0, bytesOf: null,
};

// A mask is null (none), 'causal', or a matrix whose entries are exactly 0 (hidden) or 1.
export const NO_MASK = Object.freeze({ kind: 0, matrix: NO_MATRIX });
const CAUSAL_MASK = Object.freeze({ kind: 1, matrix: NO_MATRIX });
export function readMask(value) {
  if (value === null || value === undefined) return NO_MASK;
  if (value === 'causal') return CAUSAL_MASK;
  if (typeof value !== 'object') {
    throw new Error(`options.mask must be null, 'causal' or a matrix of 0 and 1, got ${describe(value)}`);
  }
  const mask = readMatrix('mask', value, true);
  // The core reads every mask as float64 0/1, whatever the precision of the call. A float32 mask
  // is converted by the saved %TypedArray%.prototype.set (never by its iterator, which the caller
  // could have replaced), and it is the copy that is checked and staged.
  if (mask.precision.name === 'float32' && mask.length > 0) {
    const entries = new Float64Array(mask.length);
    copyInto(entries, mask.data);
    Object.assign(mask, { data: entries, precision: PRECISIONS.Float64Array });
    mask.buffer = bufferOf(entries);
    mask.bytesOf = arrayBufferBytes;
    mask.bytes = arrayBufferBytes(mask.buffer);
  } else if (mask.precision.name === 'float32') {
    Object.assign(mask, { data: EMPTY.float64, precision: PRECISIONS.Float64Array });
  }
  const { data } = mask;
  for (let i = 0; i < mask.length; i++) {
    const entry = data[i];
    if (entry !== 0 && entry !== 1) {
      throw new Error(`mask: entry (${Math.floor(i / mask.cols)}, ${i % mask.cols}) is ${entry}; entries must be exactly 0 (hidden) or 1 (allowed)`);
    }
  }
  return { kind: 2, matrix: mask };
}

// Q, K and V of one call share one precision: all Float64Array, or all Float32Array.
export function onePrecision(fn, q, k, v) {
  if (q.precision !== k.precision || q.precision !== v.precision) {
    throw new Error(`${fn}: Q, K and V must all be Float64Array or all Float32Array, got Q ${q.precision.name}, K ${k.precision.name}, V ${v.precision.name}`);
  }
  return q.precision.name;
}

export function scaleOption(value) {
  const scale = value === undefined ? 0 : value;
  if (typeof scale !== 'number' || !(scale >= 0 && scale < Infinity)) {
    throw new Error(`options.scale must be 0 (meaning √d_k) or a positive finite number, got ${describe(scale)}`);
  }
  return scale;
}
