// Reading matrix and mask arguments once, as the snapshot rule needs them: a record of what was
// read and checked, over a fixed-length view of the caller's buffer (readMatrix), whether that
// buffer is still as it was right before the copy (unchanged), and the masks (readMask).
import {
  VIEWS, arrayBufferBytes, bufferOf, byteOffsetOf, bytesGetterOf, copyInto, detached, kindOf, realLength,
} from './built-ins.js';
import { LIMITS, budget, describe, dimension, read } from './read-arguments.js';

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
