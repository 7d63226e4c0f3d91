// Runs training in slices of at most SLICE_MS of core time, one slice per animation frame, so
// that the page answers every input between slices (a slider drag, a click on Pause) and the
// browser can draw. The figure is redrawn at most REDRAW_HZ times a second: training goes on in
// the frames between, and the SVG work of a redraw is paid a quarter as often. Nothing runs while paused: no timer, no frame request. The number of steps
// per slice adapts to how long the last slices took, so d_k = 4 and d_k = 512 both keep the budget.

const SLICE_MS = 8;
const MAX_STEPS_PER_SLICE = 500;
const REDRAW_HZ = 15;

/**
 * @param {object} hooks
 * @param {(steps: number) => void} hooks.train   takes that many steps (synchronously)
 * @param {(redraw: boolean) => void} hooks.afterSlice  after each slice; `redraw` is true at most
 *                                                 REDRAW_HZ times a second
 * @param {() => number|null} hooks.remaining     steps left before the run must stop (a replay
 *                                                 target or the session's limit), or null for none
 * @param {(running: boolean) => void} hooks.onRunningChange
 */
export function createRunner({ train, afterSlice, remaining, onRunningChange }) {
  let frame = 0;
  let running = false;
  let msPerStep = 1; // a guess until the first slice has been timed
  let lastRedraw = -Infinity;

  function setRunning(value) {
    if (running === value) return;
    running = value;
    onRunningChange(running);
  }

  function slice() {
    frame = 0;
    if (!running) return;
    const left = remaining();
    if (left !== null && left <= 0) {
      setRunning(false);
      return;
    }
    let steps = Math.max(1, Math.min(MAX_STEPS_PER_SLICE, Math.floor(SLICE_MS / msPerStep)));
    if (left !== null) steps = Math.min(steps, left);
    const start = performance.now();
    try {
      train(steps);
    } catch (error) {
      setRunning(false);
      throw error;
    }
    // performance.now() is coarse (~0.1 ms): average over the slice, and smooth over slices.
    const measured = Math.max(0.01, (performance.now() - start) / steps);
    msPerStep = 0.5 * msPerStep + 0.5 * measured;
    const now = performance.now();
    const redraw = now - lastRedraw >= 1000 / REDRAW_HZ;
    if (redraw) lastRedraw = now;
    afterSlice(redraw);
    if (running) frame = requestAnimationFrame(slice);
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      setRunning(true);
      frame = requestAnimationFrame(slice);
    },
    pause() {
      cancelAnimationFrame(frame);
      frame = 0;
      setRunning(false);
    },
  };
}
