// A figure's lifetime: everything a mounted figure starts that would outlive its elements
// (listeners on the document, observers, timers, animation frames, Workers, the core's
// training sessions, store subscriptions) is registered here, and dispose() undoes it all at
// once. mount-figure.js makes one per mount and disposes it when the figure goes (the element
// left the page, or was renamed), so that nothing keeps running, or keeps the figure's
// elements alive, after its figure has gone.
//
//   const lifetime = createLifetime();
//   target.addEventListener('click', handler, { signal: lifetime.signal });
//   const observer = lifetime.resizeObserver(callback);
//   lifetime.frame(draw); lifetime.timeout(later, 250);
//   const release = lifetime.add(() => thing.close()); // release() undoes it early
//   lifetime.dispose();

/**
 * @returns {{ signal: AbortSignal, disposed: boolean, add, listen, resizeObserver,
 *   mutationObserver, timeout, frame, worker, dispose }}
 */
export function createLifetime() {
  const controller = new AbortController();
  const undo = new Set();

  const lifetime = {
    /** Aborted when the figure goes: pass it to addEventListener, fetch, … */
    signal: controller.signal,

    get disposed() {
      return controller.signal.aborted;
    },

    /**
     * Registers `release` to run on dispose. Returns a function that runs it now instead
     * (once) and forgets it. Registered after dispose, it runs at once.
     */
    add(release) {
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        undo.delete(once);
        release();
      };
      if (lifetime.disposed) once();
      else undo.add(once);
      return once;
    },

    /** addEventListener that ends with the lifetime. */
    listen(target, type, listener, options = {}) {
      target.addEventListener(type, listener, { ...options, signal: controller.signal });
    },

    /** A ResizeObserver disconnected on dispose. */
    resizeObserver(callback) {
      const observer = new ResizeObserver(callback);
      lifetime.add(() => observer.disconnect());
      return observer;
    },

    /** A MutationObserver disconnected on dispose. */
    mutationObserver(callback) {
      const observer = new MutationObserver(callback);
      lifetime.add(() => observer.disconnect());
      return observer;
    },

    /** setTimeout, cleared on dispose. Returns a function that clears it. */
    timeout(callback, ms) {
      let release = null;
      const id = setTimeout(() => {
        release();
        callback();
      }, ms);
      release = lifetime.add(() => clearTimeout(id));
      return release;
    },

    /** requestAnimationFrame, cancelled on dispose. Returns a function that cancels it. */
    frame(callback) {
      let release = null;
      const id = requestAnimationFrame((time) => {
        release();
        callback(time);
      });
      release = lifetime.add(() => cancelAnimationFrame(id));
      return release;
    },

    /** A Worker terminated on dispose. */
    worker(url, options) {
      const worker = new Worker(url, options);
      lifetime.add(() => worker.terminate());
      return worker;
    },

    /** Undoes everything registered, newest first. Calling it again does nothing. */
    dispose() {
      if (lifetime.disposed) return;
      controller.abort();
      for (const release of [...undo].reverse()) {
        try {
          release();
        } catch (error) {
          console.error(error); // one failing release must not keep the others alive
        }
      }
      undo.clear();
    },
  };
  return lifetime;
}

/**
 * The store as one figure sees it: the same values, but its subscriptions end with the
 * lifetime (an unsubscribe returned to the figure still works, and forgets the registration).
 */
export function scopedStore(state, lifetime) {
  return Object.create(state, {
    subscribe: {
      value: (keys, listener) => lifetime.add(state.subscribe(keys, listener)),
    },
  });
}

let sessionsAlive = 0;

/** How many training sessions the figures have created and not yet disposed (for tests). */
export function trainingSessionsAlive() {
  return sessionsAlive;
}

/**
 * The Attention Lab API as one figure sees it: the same functions, but each training session
 * it creates is disposed with the lifetime (or earlier, by the figure's own dispose()).
 */
export function scopedLab(lab, lifetime) {
  if (typeof lab?.createTraining !== 'function') return lab;
  return Object.create(lab, {
    createTraining: {
      value: (settings) => {
        const session = lab.createTraining(settings);
        sessionsAlive += 1;
        const release = lifetime.add(() => {
          sessionsAlive -= 1;
          session.dispose();
        });
        return Object.create(session, { dispose: { value: release } });
      },
    },
  });
}
