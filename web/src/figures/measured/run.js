// Where a run of the "measured in your browser" figure happens. In a Web Worker when one can
// start (the page and the iframe embed: the Worker's script and the WebAssembly come from the
// page's own origin), so that no timing ever holds up the page's input. Otherwise (the
// <attention-figure> element, whose script may come from another origin than the page it is
// on, and which knows no address of its own to start a Worker from) on the main thread, in
// slices of at most about 8 ms between which the browser handles input and draws.

import { yieldToBrowser } from '../../lib/dom/yield.js';
import { measure } from './bench.js';
import { workerUrl } from '../../lib/dom/worker-url.js';

const WORKER_FILE = 'measured-worker.js';
/** A slice of the main-thread run ends once this much time has passed... */
const SLICE_SECONDS = 0.005;
/** ...and no unit of work inside it is meant to take longer than this: ≤ 8 ms in all. */
const UNIT_SECONDS = 0.003;


/**
 * Runs bench.js's loop on this thread in slices. Returns { stop() }.
 * onEvent gets every event but the ticks.
 */
function runHere(lab, options, onEvent) {
  const steps = measure(lab, { ...options, sliced: true, unitSeconds: UNIT_SECONDS });
  let stopped = false;
  (async () => {
    await yieldToBrowser();
    while (!stopped) {
      const start = performance.now();
      try {
        while (performance.now() - start < SLICE_SECONDS * 1000) {
          const { value, done } = steps.next();
          if (done) return;
          if (value.type !== 'tick') onEvent(value);
          if (stopped) return; // an event may have stopped the run
        }
      } catch (error) {
        onEvent({ type: 'error', message: error.message });
        return;
      }
      await yieldToBrowser(); // input and frames go between two slices
    }
  })();
  return {
    stop() {
      stopped = true;
      steps.return();
    },
  };
}

/**
 * Starts a run. onEvent(event) gets bench.js's events (but ticks), and { type: 'where', where:
 * 'worker' | 'page', why } once it is known where the run happens, and { type: 'error', message }.
 * Returns { stop() }: the run ends at once, and no event follows.
 */
export function startRun({ lab, options, onEvent }) {
  let stopped = false;
  let current = null; // { stop() } of the worker or of the main-thread run
  const emit = (event) => {
    if (!stopped) onEvent(event);
  };
  const onThisThread = (why) => {
    if (stopped) return;
    emit({ type: 'where', where: 'page', why });
    current = runHere(lab, options, emit);
  };

  const url = workerUrl(WORKER_FILE);
  if (!url) {
    onThisThread('element');
  } else {
    let worker = null;
    try {
      worker = new Worker(url, { type: 'module', name: 'attention-lab-measured' });
    } catch {
      worker = null;
    }
    if (!worker) {
      onThisThread('no-worker');
    } else {
      let ready = false;
      const end = () => worker.terminate();
      current = { stop: end };
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        end();
        // A Worker that could not load (a policy, a missing file) leaves the main thread.
        if (!ready) onThisThread('no-worker');
        else emit({ type: 'error', message: event.message || 'the Worker stopped' });
      });
      worker.addEventListener('message', ({ data }) => {
        if (data.type === 'ready') {
          ready = true;
          emit({ type: 'where', where: 'worker' });
          return;
        }
        if (data.type === 'failed') {
          end();
          onThisThread('no-core-in-worker');
          return;
        }
        if (data.type === 'done' || data.type === 'error') end(); // frees the Worker's memory
        emit(data);
      });
      worker.postMessage({ type: 'run', options });
    }
  }
  return {
    stop() {
      stopped = true;
      current?.stop();
    },
  };
}
