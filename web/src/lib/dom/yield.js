// Long work on the main thread is cut into pieces with a yield between them, so the browser
// can paint and answer input: no piece should take more than a few milliseconds.

const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();

/**
 * Resolves in a new task, after the browser has had its chance to handle input and paint.
 * A posted message rather than setTimeout(0), which browsers clamp to 4 ms once nested, and
 * rather than scheduler.yield(), whose continuation may run before a due frame is painted.
 */
export function yieldToBrowser() {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}
