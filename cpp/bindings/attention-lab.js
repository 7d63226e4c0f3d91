// The JavaScript API of Attention Lab: the object createAttentionLab returns, whose every
// function reads and checks its arguments (cpp/bindings/js/read-arguments.js) and calls one raw
// export of the core through the heap protocol (cpp/bindings/js/heap-calls.js).
//
// The page and the tests use only this module. A matrix here is a plain object
// { rows, cols, data } with `data` a Float64Array in row-major order. Every array that
// comes back is a copy owned by the caller, never a live view of the WebAssembly heap.
//
// How a call crosses into the core (cpp/bindings/boundary.hpp and cpp/bindings/exports/, raw
// exports named _al_*):
//   1. Every argument is read once and checked here: types, real lengths (the typed array's
//      own length, whatever its `length` property says), shapes, options from a closed set,
//      mask entries, counts, and the work budget (LIMITS). A bad argument throws an Error
//      naming the argument, what was expected and what came, before the core is touched.
//   2. The inputs are copied once into one reused area of the WebAssembly heap, exactly as they
//      were read (from fixed-length views made when they were read; an input whose buffer
//      changed size since, grown, shrunk or detached by a later argument's getter, is refused,
//      naming it, before anything is written), behind a call record of their
//      addresses, shapes and the call's numbers, and one raw export runs the core. It never
//      throws: it returns a status, and the core's message for a failure, thrown here as an Error.
//   3. The results are copied out once into fresh typed arrays, and the core frees them.
// So an error, however many, leaves nothing behind: not a byte of heap, not a byte of the
// WebAssembly stack, not an Embind handle (see memoryStats and tests/js/api/error-path-leaks.test.mjs).
//
// The functions come in three families, each a module taking (core, calls): the attention
// and multi-head functions (js/api-attention.js), row statistics and the product
// (js/api-rows.js), and experiments, records and training (js/api-experiments.js).
import { attentionFunctions } from './js/api-attention.js';
import { experimentFunctions } from './js/api-experiments.js';
import { rowFunctions } from './js/api-rows.js';
import { createHeapCalls } from './js/heap-calls.js';
import { CORE_LIMITS, LIMITS } from './js/read-arguments.js';
import { LEARN_LIMITS } from './js/training.js';

export { LIMITS } from './js/read-arguments.js';
export { at, matrix, row, toRows } from './js/matrix.js';

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
  const calls = createHeapCalls(core);
  return {
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

    ...attentionFunctions(core, calls),
    ...rowFunctions(core, calls),
    ...experimentFunctions(core, calls),
  };
}
