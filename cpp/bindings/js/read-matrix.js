// Reading matrix and mask arguments once, as the snapshot rule needs them: a record of what was
// read and checked, over a fixed-length view of the caller's buffer (readMatrix), whether that
// buffer is still as it was right before the copy (unchanged), and the masks (readMask).
import {
  VIEWS, arrayBufferBytes, bufferOf, byteOffsetOf, bytesGetterOf, copyInto, detached, kindOf, realLength,
} from './built-ins.js';
import { LIMITS, budget, describe, dimension, messageOf, read } from './read-arguments.js';

// How a matrix's entries cross the boundary, by the type of its data. Float32Array data runs
// attention and streamingAttention in float32 (WebAssembly SIMD kernels); every other function
// takes float64 only. The copy-out goes by the element type in the result table.
const PRECISIONS = Object.freeze({
  Float64Array: Object.freeze({ name: 'float64', bytes: 8, heap: 'HEAPF64' }),
  Float32Array: Object.freeze({ name: 'float32', bytes: 4, heap: 'HEAPF32' }),
});
export const ELEMENT_TYPES = ['HEAPF64', 'HEAPF32']; // the core's ElementType, as heap views
const MATRIX_SHAPE = '{ rows, cols, data: Float64Array }';

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

// ---- results written into the caller's arrays (options.into) ------------------------------

/**
 * Reads options.into of a call whose results are `names` (in the order the core lists them):
 * `value` is undefined (no into: fresh arrays) or an object naming some of those results, each a
 * Float64Array or Float32Array the result is written into. Each named array is read once (a
 * getter that throws becomes an Error naming it) and kept as a record { name, array, buffer,
 * bytes, bytesOf, length, offset }: `array` is the caller's object, written into and handed back
 * as the result's data. Returns a list parallel to `names` (null where the
 * result gets a fresh array), or null without into. The kind and length are checked once the
 * call's precision and shapes are known (checkInto), and the buffer again right before the copy
 * (intoUnchanged), since a getter of a later argument may resize or detach it in between.
 */
export function readInto(fn, value, names, outputOnly) {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || kindOf(value) !== undefined) {
    throw new Error(`${fn}: options.into must be an object such as { output: new Float64Array(rows * cols) }, got ${describe(value)}`);
  }
  let keys;
  try {
    keys = Object.keys(value);
  } catch (error) {
    throw new Error(`${fn}: options.into could not be read: ${messageOf(error)}`, { cause: error });
  }
  const targets = names.length === 1 ? [null] : [null, null, null, null];
  for (const key of keys) {
    const index = names.indexOf(key);
    if (index < 0) {
      const why = outputOnly && ALL_RESULTS.includes(key) ? ` (with results: 'output' the call computes the output alone)` : '';
      throw new Error(`${fn}: options.into names ${JSON.stringify(key)}${why}; it may name ${names.join(', ')}`);
    }
    const name = `options.into.${key}`;
    const array = read(value, key, 'options.into');
    const kind = (array !== null && typeof array === 'object') ? kindOf(array) : undefined;
    if (!PRECISIONS[kind]) throw new Error(`${name}: expected a Float64Array or Float32Array to write ${RESULT_WORDS[key]} into, got ${describe(array)}`);
    const length = realLength(array);
    const buffer = bufferOf(array);
    const bytesOf = bytesGetterOf(buffer);
    const offset = byteOffsetOf(array);
    // No view of its own: a typed array's entries are written without any of the caller's code
    // (an integer index never reaches a prototype), and its length is checked right before.
    targets[index] = { name, key, array, kind, length, offset, buffer, bytesOf, bytes: bytesOf(buffer) };
  }
  return targets;
}
const ALL_RESULTS = Object.freeze(['rawScores', 'scaledScores', 'weights', 'output']);
const RESULT_WORDS = Object.freeze({ rawScores: 'the raw scores', scaledScores: 'the scaled scores', weights: 'the weights', output: 'the output' });

/**
 * Checks the arrays of options.into against the call, once its inputs are read: each of the
 * call's precision (Float32Array for a float32 call, Float64Array for float64) and of exactly
 * rows×cols entries (`shapes`: [rows, cols] per result), and no two sharing memory (one result
 * would overwrite another). An array may be an input's own data: the inputs are copied into the
 * heap before anything is written.
 */
export function checkInto(targets, precision, shapes) {
  if (targets === null) return;
  const wanted = precision === 'float32' ? 'Float32Array' : 'Float64Array';
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i];
    if (t === null) continue;
    const [rows, cols] = shapes[i];
    if (t.kind !== wanted || t.length !== rows * cols) {
      const why = t.kind !== wanted ? ` (a ${precision} call writes ${wanted}s)` : '';
      throw new Error(`${t.name}: expected a ${wanted} of ${rows}x${cols} = ${rows * cols} entries for ${RESULT_WORDS[t.key]}, got a ${t.kind} of ${t.length} entries${why}`);
    }
    for (let j = 0; j < i; j++) {
      const u = targets[j];
      if (u !== null && u.buffer === t.buffer && t.length > 0 && u.length > 0 &&
          u.offset < t.offset + t.length * PRECISIONS[t.kind].bytes && t.offset < u.offset + u.length * PRECISIONS[u.kind].bytes) {
        throw new Error(`${t.name} and ${u.name} share memory; each result needs an array of its own`);
      }
    }
  }
}

/**
 * The Error for an array of options.into that can no longer be written as it was checked (its
 * buffer resized or detached since it was read, or a view of the WebAssembly heap itself, which
 * a copy would overwrite), or null when all are fine. Called right before the results are
 * copied, with no caller's code in between.
 */
export function intoProblem(targets, heapBuffer) {
  if (targets === null) return null;
  for (const t of targets) {
    if (t === null || t.length === 0) continue;
    if (t.buffer === heapBuffer) return new Error(`${t.name} is a view of the WebAssembly heap, which the results are copied from; pass an array of your own`);
    const now = t.bytesOf(t.buffer);
    if (now !== t.bytes || realLength(t.array) !== t.length) {
      const what = now === 0 && detached(t.buffer) ? 'was detached (transferred)' : `was resized: it had ${t.bytes} bytes when options.into was read, ${now} now`;
      return new Error(`${t.name}: its buffer ${what}, by a later argument; nothing was written`);
    }
  }
  return null;
}
