// A chart redrawn at every key press need not draw while it is off screen. On a phone the
// width experiment's plots sit below its sliders: a press of the keys slider redrew both,
// unseen, for about 1.1 of its 5 ms of work. A chart that opts in (plot.js, waitOffScreen)
// asks for its drawing here; off screen the newest drawing waits, and it is drawn as the chart
// comes within a fifth of a screen of the viewport, before it is exported (the chart's
// addShapes) and before the page is printed. What a screen reader reads is never made to wait:
// the charts keep their names and text up to date themselves.
//
// One IntersectionObserver for the page; releaseOnScreen(root) lets go of the charts of a
// figure that has gone (with releaseCharts, fit.js), so none is kept alive by it.

const watched = new Map(); // element → { onScreen, pending: the waiting drawing, or null }
let observer = null;

function drawPending(entry) {
  const draw = entry.pending;
  entry.pending = null;
  draw?.();
}

function observe(element) {
  if (!observer) {
    observer = new IntersectionObserver((entries) => {
      for (const { target, isIntersecting } of entries) {
        const entry = watched.get(target);
        if (!entry) continue;
        entry.onScreen = isIntersecting;
        if (isIntersecting) drawPending(entry);
      }
    }, { rootMargin: '20% 0px' });
    // Paper shows everything: every waiting drawing is drawn first.
    window.addEventListener('beforeprint', () => watched.forEach(drawPending));
  }
  observer.observe(element);
}

/**
 * Watches `element` (a chart's outer box) and returns { draw(drawing), flush() }: draw runs
 * `drawing` now if the chart is on screen (or not yet reported: a new chart draws at once),
 * else keeps it as the one waiting (a newer one replaces it); flush draws the waiting one now.
 * Where there is no IntersectionObserver, everything is drawn at once.
 */
export function drawWhenOnScreen(element) {
  const entry = { onScreen: true, pending: null };
  if (typeof IntersectionObserver === 'function') {
    watched.set(element, entry);
    observe(element);
  }
  return {
    draw(drawing) {
      if (entry.onScreen) {
        entry.pending = null;
        drawing();
      } else {
        entry.pending = drawing;
      }
    },
    flush: () => drawPending(entry),
  };
}

/** Stops watching the charts inside `root` (a figure that has gone), and any no longer in a document. */
export function releaseOnScreen(root) {
  for (const element of [...watched.keys()]) {
    if (!element.isConnected || root.contains(element)) {
      observer?.unobserve(element);
      watched.delete(element);
    }
  }
}
