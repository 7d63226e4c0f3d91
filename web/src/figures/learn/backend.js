// Where the learn figure trains. In a Web Worker when one can start (the page and the iframe
// embed: the Worker's script and the WebAssembly come from the page's own origin), so that
// training never holds up the page's input or drawing. Otherwise on the page itself, in slices
// of about 8 ms per animation frame: the <attention-figure> element (whose script may come from
// another origin and knows no address of its own to start a Worker from), a page opened from
// file://, the single-file export, and a host whose Content-Security-Policy forbids Workers.
// Both run the same engine (engine.js) and speak the same messages, so the figure behaves alike.
//
// A Worker that fails before its core has started (a policy, a missing file) leaves the page
// training on its own thread: the commands it was sent are handed to the page's engine in order,
// so nothing the learner did is lost.

import { createEngine } from './engine.js';
import { workerUrl } from '../../lib/dom/worker-url.js';

const WORKER_FILE = 'learn-worker.js';


/**
 * @param {object} options
 * @param {object} options.lab        the JS API of the core on the page (for the fallback)
 * @param {(message: object) => void} options.onMessage  the engine's updates and errors
 * @param {object} [options.lifetime] the figure's lifetime: the Worker is terminated with it
 * @returns {{ send(command): void, where: 'worker'|'page', dispose(): void }}
 */
export function createBackend({ lab, onMessage, lifetime }) {
  let local = null;
  let worker = null;
  let log = []; // commands sent before the Worker's core started, replayed if it cannot
  let where = 'page';

  const onPage = () => {
    where = 'page';
    local = createEngine({ lab, post: (message) => onMessage(message) });
    return local;
  };

  const url = workerUrl(WORKER_FILE);
  if (url) {
    try {
      worker = new Worker(url, { type: 'module', name: 'attention-lab-learn' });
      where = 'worker';
    } catch {
      worker = null; // a policy that forbids Workers, or no module Workers
    }
  }
  if (!worker) onPage();

  function giveUpWorker() {
    if (!worker) return;
    worker.terminate();
    worker = null;
    const commands = log ?? [];
    log = null;
    if (lifetime?.disposed) return;
    const engine = onPage();
    for (const command of commands) engine.handle(command);
  }

  if (worker) {
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (log) giveUpWorker(); // it could not load: train here instead
      else onMessage({ type: 'error', epoch: null, message: event.message || 'the training stopped' });
    });
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'ready') log = null;
      else if (data.type === 'failed') giveUpWorker();
      else onMessage(data);
    });
  }

  const backend = {
    get where() {
      return where;
    },
    send(command) {
      if (local) {
        local.handle(command);
        return;
      }
      log?.push(command);
      worker.postMessage(command);
    },
    dispose() {
      worker?.terminate();
      worker = null;
      local?.handle({ type: 'dispose' });
    },
  };
  lifetime?.add(() => backend.dispose());
  return backend;
}
