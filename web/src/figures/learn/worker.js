// The Worker of the "Watch it learn" figure (bundled as learn-worker.js beside the page's bundle,
// and started by backend.js). It loads its own copy of the WebAssembly core, from the same origin
// as the page (load-wasm.js finds the glue and .wasm beside this file), and runs the figure's
// training engine (engine.js): the page sends commands and only draws the updates that come back.
// Commands that arrive while the core loads wait for it, in order.
//
// Out, besides the engine's updates: { type: 'ready' } once the core has started, { type:
// 'failed', message } when it cannot start here (the page then trains on its own thread).

import { labReady } from '../../load-wasm.js';
import { createEngine } from './engine.js';
import { messageTurns } from './runner.js';

// A longer slice than on the page: nothing here waits for it but the next command.
const SLICE_MS = 20;
const MAX_STEPS_PER_SLICE = 4000;

let engine = null;
const waiting = [];
addEventListener('message', (event) => {
  if (engine) engine.handle(event.data);
  else waiting.push(event.data);
});

labReady.then((lab) => {
  postMessage({ type: 'ready' });
  engine = createEngine({
    lab,
    post: (message) => postMessage(message),
    runner: { sliceMs: SLICE_MS, maxStepsPerSlice: MAX_STEPS_PER_SLICE, scheduler: messageTurns() },
  });
  for (const command of waiting.splice(0)) engine.handle(command);
}, (error) => {
  postMessage({ type: 'failed', message: String(error?.message ?? error) });
});
