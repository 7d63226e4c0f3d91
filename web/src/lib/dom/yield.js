// Long work on the main thread is cut into pieces with a yield between them, so the browser
// can paint and answer input: no piece should take more than a few milliseconds.

let channel = null; // made on first use: an open port would keep a node process (tests) alive
const waiting = [];

/**
 * Resolves in a new task, after the browser has had its chance to handle input and paint.
 * A posted message rather than setTimeout(0), which browsers clamp to 4 ms once nested, and
 * rather than scheduler.yield(), whose continuation may run before a due frame is painted.
 */
export function yieldToBrowser() {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
    channel.port1.unref?.(); // node only: a pending yield alone does not keep the process running
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/**
 * Runs `callback` once the browser has painted the next frame (in a task after it): for work
 * a reader does not see, such as the names a screen reader reads, that should not hold up the
 * pixels of a key press. Returns a function that cancels it. Given an element, it is dropped
 * if that element has left the document by the frame: a removed figure posts no more tasks.
 */
export function afterNextPaint(callback, element = null) {
  let cancelled = false;
  const frame = requestAnimationFrame(() => {
    if (element && !element.isConnected) return;
    yieldToBrowser().then(() => { if (!cancelled) callback(); });
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
  };
}
