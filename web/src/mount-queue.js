// Mounts the page's figures one per task, nearest the reader first. Mounting all eleven in one
// go froze the main thread for 1.1–1.6 s at a 6× slower CPU before anything could be used;
// one at a time, with the browser free to paint and handle input in between, the figure on
// screen answers first and the rest follow while the reader reads. A figure that comes into
// view (the reader scrolled, or the link named it with #figure-…) jumps the queue.

import { yieldToBrowser } from './lib/dom/yield.js';

/** The figure the link's #hash points at (or that contains its target), if any. */
function hashTarget(figures) {
  if (location.hash.length < 2) return null;
  let id;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return null; // a malformed hash names nothing
  }
  const target = document.getElementById(id);
  return target ? figures.find((figure) => figure === target || figure.contains(target)
    || target.contains(figure)) ?? null : null;
}

/**
 * Calls `mountOne(figure)` (which may return a promise) for every figure, one per task.
 * Order: the link's #hash target, then figures within a screen of the viewport, then the rest
 * in document order. Resolves when all are mounted, or once `signal` (an AbortSignal) aborts:
 * then no further figure mounts and the observer lets go of them.
 */
export async function mountInTurn(figures, mountOne, { signal } = {}) {
  const waiting = [...figures];
  const nearView = new Set();
  // Half a screen above and a full screen below: mounted just before the reader reaches them.
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) nearView.add(entry.target);
      else nearView.delete(entry.target);
    }
  }, { rootMargin: '50% 0px 100% 0px' });
  for (const figure of waiting) observer.observe(figure);
  signal?.addEventListener('abort', () => {
    waiting.length = 0;
    nearView.clear();
    observer.disconnect();
  }, { once: true });
  // The observer reports what is in view after the next frame; wait for that first report.
  await new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); });

  const first = hashTarget(waiting);
  const takeNext = () => {
    let index = first && waiting.includes(first) ? waiting.indexOf(first) : waiting.findIndex((f) => nearView.has(f));
    if (index < 0) index = 0;
    return waiting.splice(index, 1)[0];
  };
  while (waiting.length) {
    const figure = takeNext();
    observer.unobserve(figure);
    await mountOne(figure);
    await yieldToBrowser();
  }
  observer.disconnect();
}
