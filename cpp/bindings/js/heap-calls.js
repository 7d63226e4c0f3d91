// The heap protocol of the raw exports (cpp/bindings/boundary.hpp), the one place that writes
// into the WebAssembly heap and reads results out of it:
//   stage(a, …)      copies up to seven read matrices (records from readMatrix) into the reused
//                    input area, and writes the call record at its start: (address, rows, cols)
//                    of each, in order, as float64
//   numbers(a, …)    appends up to seven numbers to the call record, after the matrices
//   invoke(exported) runs one raw export on the call record and returns its count
//   run(exported)    the same, then every result copied out into matrices the caller owns
//   finish/result/release   the same in pieces, for the hot calls (no closure, no list)
//   resultInto(i, target)   result i copied into an array of the caller's (options.into)
// The order of stage's matrices and of the numbers is the export's record struct, defined once
// in its file under cpp/bindings/exports/. Nothing here checks an argument: that was done
// before (cpp/bindings/js/read-arguments.js).
import { copyInto, subarrayOf } from './built-ins.js';
import { messageOf } from './read-arguments.js';
import { ELEMENT_TYPES, changedError, unchanged } from './read-matrix.js';

// Results of up to this many entries are copied into a caller's array entry by entry, bigger
// ones by the saved %TypedArray%.prototype.set from a view of the heap.
const SMALL_COPY = 256;

/** Bytes at the start of the input area kept for the call record (kRecordBytes in boundary.hpp). */
const RECORD_BYTES = 256;

/** The heap protocol over one Emscripten module instance. */
export function createHeapCalls(core) {
  if (core._al_record_bytes() !== RECORD_BYTES) {
    throw new Error(`heap-calls.js and the core disagree on the call record: ${RECORD_BYTES} bytes here, ${core._al_record_bytes()} in cpp/bindings/boundary.hpp`);
  }
  const utf8 = new TextDecoder();
  function coreMessage() {
    const start = core._al_error_message();
    return utf8.decode(core.HEAPU8.subarray(start, start + core._al_error_length()));
  }
  const { stage, numbers, record } = inputArea(core);
  const { finish, result, resultInto, release } = resultTable(core, coreMessage);

  /** Runs one raw export on the staged call record; returns its count (results, or -1). */
  function invoke(exported) {
    try {
      return exported(record());
    } catch (error) {
      return trapped(error);
    }
  }

  /**
   * Runs one raw export and returns its results as matrices the caller owns, or throws the
   * core's message as an Error. The core's results are freed whatever happens.
   */
  function run(exported) {
    const count = finish(invoke(exported)); // released already when it throws
    try {
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

  /**
   * A value object (cost, layer comparison) comes back as a fresh JS object; a failure as an
   * empty one, with the core's message kept.
   */
  function valueObject(value) {
    if (core._al_error_length() > 0) throw new Error(coreMessage());
    return value;
  }

  return Object.freeze({ stage, numbers, invoke, run, finish, result, resultInto, release, valueObject, trapped });
}

/** stage() and numbers(): the inputs and the call record in the reused input area. */
function inputArea(core) {
  let callRecord = 0; // byte address of the call record: the start of the input area
  let field = 0; // HEAPF64 index of the record's next free field

  /**
   * Copies the inputs (up to seven; the rest undefined) into the reused input area, one after
   * another, sets each one's address and lists it in the call record. Fixed arguments rather than
   * a list: this runs on every call, and makes no array. The same record passed twice in a row
   * (self-attention's X as queries and as keys) is copied once.
   */
  function stage(a, b, c, d, e, f, g) {
    const bytes = RECORD_BYTES + padded(a) + padded(b, a) + padded(c, b) + padded(d, c) + padded(e, d) + padded(f, e) + padded(g, f);
    const base = core._al_input_area(bytes);
    if (base === 0) throw new Error(`out of memory: the WebAssembly heap could not make room for ${bytes} bytes of inputs`);
    // The snapshot rule: each input is copied only if its buffer has not changed size since it
    // was read and checked (a getter of a later argument may have grown, shrunk or detached it;
    // reserving the area may have grown the memory that a view of the heap itself lies in).
    // Checked after reserving and before the first copy, with no caller's code in between, so
    // the copy reads exactly the checked entries: a changed input is refused with the input area
    // given back and not a byte of the heap written.
    if (!(same(a) && same(b) && same(c) && same(d) && same(e) && same(f) && same(g))) {
      const changed = [a, b, c, d, e, f, g].find((input) => !same(input));
      core._al_release();
      throw changedError(changed);
    }
    callRecord = base;
    field = base / 8;
    // The heap's views afresh (reserving the area may have grown the memory), looked up once: the
    // module object has hundreds of properties, and each lookup costs.
    f64 = core.HEAPF64;
    let address = base + RECORD_BYTES;
    address = place(a, address);
    address = place(b, address, a);
    address = place(c, address, b);
    address = place(d, address, c);
    address = place(e, address, d);
    address = place(f, address, e);
    place(g, address, f);
  }
  const same = (input) => input === undefined || unchanged(input);
  // Each input starts on an 8-byte boundary, so float64 data may follow float32 data.
  function padded(input, previous) {
    return input === undefined || input === previous ? 0 : Math.ceil((input.length * input.precision.bytes) / 8) * 8;
  }
  let f64 = null; // HEAPF64 as stage() found it, until the call
  function place(input, address, previous) {
    if (input === undefined) return address;
    let next = address;
    if (input !== previous && input.length !== 0) {
      const bytes = input.precision.bytes;
      // From the fixed-length view readMatrix made, by the saved %TypedArray%.prototype.set.
      copyInto(bytes === 8 ? f64 : core.HEAPF32, input.data, address / bytes);
      input.address = address;
      next = address + padded(input);
    }
    f64[field] = input.address;
    f64[field + 1] = input.rows;
    f64[field + 2] = input.cols;
    field += 3;
    return next;
  }

  /** Appends numbers to the call record (up to seven; the rest undefined), after the matrices; right after stage(). */
  function numbers(a, b, c, d, e, f, g) {
    const record = f64;
    if (a !== undefined) record[field++] = a;
    if (b !== undefined) record[field++] = b;
    if (c !== undefined) record[field++] = c;
    if (d !== undefined) record[field++] = d;
    if (e !== undefined) record[field++] = e;
    if (f !== undefined) record[field++] = f;
    if (g !== undefined) record[field++] = g;
  }

  return { stage, numbers, record: () => callRecord };
}

/** The open result table of the last call: its results copied out, then released. */
function resultTable(core, coreMessage) {
  // The last call's result table (an index into HEAPU32), and its results copied out of it.
  // Results that lie end to end in the heap (every page-sized attention and multi-head call) are
  // copied in one slice, and each result is a view into that fresh buffer: one allocation per
  // call instead of one per matrix, which was most of a small call's time. The buffer belongs to
  // the caller alone; the core never sees it again.
  let table = 0;
  let block = null; // the one copy, or null when the results are apart (each then sliced alone)
  let blockStart = 0; // the byte address the copy starts at
  function opened(count, oneBlock) {
    if (count < 0) throw new Error(coreMessage());
    table = core._al_result_table() / 4;
    block = null;
    if (count > 1 && oneBlock) copyAtOnce(count);
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
  /** Result i of the open result table, as a matrix the caller owns. */
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
  /**
   * Result i of the open result table copied into `target`, an array of options.into as
   * readInto recorded it (checked for its kind and length, and just now for its buffer): the
   * caller's own array comes back as the matrix's data, and no buffer is made.
   */
  function resultInto(i, target) {
    const types = core.HEAPU32;
    const entry = table + 4 * i;
    const rows = types[entry + 1];
    const cols = types[entry + 2];
    const count = rows * cols;
    if (count !== target.length) throw new Error(`${target.name}: the core made ${rows}x${cols} entries, not ${target.length}`);
    const heap = core[ELEMENT_TYPES[types[entry + 3]]];
    const start = types[entry] / heap.BYTES_PER_ELEMENT;
    const out = target.array;
    if (count <= SMALL_COPY) {
      // a page-sized result entry by entry: no view of the heap made for it
      for (let k = 0; k < count; k++) out[k] = heap[start + k];
    } else {
      copyInto(out, subarrayOf(heap, start, start + count));
    }
    return { rows, cols, data: target.array };
  }

  /** Frees the core's results and lets go of the copy (the caller's now). */
  function release() {
    block = null;
    core._al_release();
  }

  /**
   * For the hot calls, without the closure and the list of run(): opens the table and hands back
   * the count, or releases and throws the message; the caller copies its results out with
   * result(i) and then calls release().
   */
  function finish(count, oneBlock = true) {
    try {
      opened(count, oneBlock);
    } catch (error) {
      release();
      throw error;
    }
    return count;
  }

  return { finish, result, resultInto, release };
}
