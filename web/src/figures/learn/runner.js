// Runs training in slices of at most `sliceMs` of core time, one slice per turn of `schedule`,
// so that whatever shares the thread gets its turn between slices: on the page (the fallback,
// where no Worker can start) one slice per animation frame, so that the page answers every
// input and the browser can draw; in the Worker one slice per message turn, so that a Pause or
// a new setting from the page is read between two slices. Nothing runs while paused: no timer,
// no frame request. The number of steps per slice adapts to how long the last slices took, so
// d_k = 4 and d_k = 512 both keep the budget.

const animationFrames = {
  schedule: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * @param {object} hooks
 * @param {(steps: number) => void} hooks.train   takes that many steps (synchronously)
 * @param {() => void} hooks.afterSlice           after each slice
 * @param {() => number|null} hooks.remaining     steps left before the run must stop (a replay
 *                                                 target or the session's limit), or null for none
 * @param {(running: boolean) => void} hooks.onRunningChange
 * @param {(error: Error) => void} [hooks.onError]  a step that threw (the run has ended); without
 *                                                 it the error goes on up
 * @param {object} [options]
 * @param {number} [options.sliceMs]              the core time of one slice
 * @param {number} [options.maxStepsPerSlice]
 * @param {{ schedule(fn): any, cancel(handle): void }} [options.scheduler]  animation frames by default
 */
export function createRunner({ train, afterSlice, remaining, onRunningChange, onError },
  { sliceMs = 8, maxStepsPerSlice = 500, scheduler = animationFrames } = {}) {
  let handle = null;
  let running = false;
  let msPerStep = 1; // a guess until the first slice has been timed

  function setRunning(value) {
    if (running === value) return;
    running = value;
    onRunningChange(running);
  }

  function slice() {
    handle = null;
    if (!running) return;
    const left = remaining();
    if (left !== null && left <= 0) {
      setRunning(false);
      return;
    }
    let steps = Math.max(1, Math.min(maxStepsPerSlice, Math.floor(sliceMs / msPerStep)));
    if (left !== null) steps = Math.min(steps, left);
    const start = performance.now();
    try {
      train(steps);
    } catch (error) {
      setRunning(false);
      if (!onError) throw error;
      onError(error);
      return;
    }
    // performance.now() is coarse (~0.1 ms): average over the slice, and smooth over slices.
    const measured = Math.max(0.005, (performance.now() - start) / steps);
    msPerStep = 0.5 * msPerStep + 0.5 * measured;
    afterSlice();
    if (running && handle === null) handle = scheduler.schedule(slice);
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      setRunning(true);
      handle = scheduler.schedule(slice);
    },
    pause() {
      if (handle !== null) scheduler.cancel(handle);
      handle = null;
      setRunning(false);
    },
  };
}

/** One slice per turn of the event loop, with no clamping (a Worker has no animation frames to wait for). */
export function messageTurns() {
  const channel = new MessageChannel();
  let queued = null;
  let next = 1;
  channel.port1.onmessage = () => {
    const callback = queued?.callback;
    queued = null;
    callback?.();
  };
  return {
    schedule(callback) {
      queued = { callback, id: next++ };
      channel.port2.postMessage(0);
      return queued.id;
    },
    cancel(id) {
      if (queued?.id === id) queued = null;
    },
  };
}
