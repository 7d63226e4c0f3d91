// The Worker of the "measured in your browser" figure (bundled as measured-worker.js beside the
// page's bundle, and started by run.js). It loads its own copy of the WebAssembly core, from the
// same origin as the page (load-wasm.js finds the glue and .wasm beside this file), runs the
// whole timing loop at once and posts every event to the page, which only draws. The page stops
// a run by terminating the Worker, even in the middle of a long call.
//
// Messages in: { type: 'run', options } (bench.js's options). Out: { type: 'ready' } once the core
// has started, bench.js's events, { type: 'failed', message } when the core cannot start here,
// { type: 'error', message } when the loop itself fails.

import { labReady } from '../../load-wasm.js';
import { measure } from './bench.js';

addEventListener('message', async (event) => {
  if (event.data?.type !== 'run') return;
  let lab;
  try {
    lab = await labReady;
  } catch (error) {
    postMessage({ type: 'failed', message: String(error?.message ?? error) });
    return;
  }
  postMessage({ type: 'ready' });
  try {
    for (const step of measure(lab, { ...event.data.options, sliced: false })) {
      if (step.type !== 'tick') postMessage(step);
    }
  } catch (error) {
    postMessage({ type: 'error', message: String(error?.message ?? error) });
  }
});
