// Charts are drawn in CSS pixels: each one lays itself out for the width it is given and for
// the reader's text size, so that its text keeps its size on a phone and grows with 200 %
// text, instead of shrinking with a scaled viewBox. A chart asks to be fitted with fitChart():
// an invisible probe, as wide as the chart's box and 1rem high, tells one shared
// ResizeObserver when either changes. The probe's size does not depend on what the chart
// draws, so redrawing never triggers another report (no ResizeObserver loop).
//
// The observer runs after layout and before paint. It reads for every chart first
// (measure: text widths, font sizes) and only then writes (apply), so one chart's redraw
// never forces the layout another chart reads.

import { htmlElement } from '../dom/elements.js';
import { releaseOnScreen } from './on-screen.js';

const fitted = new Map(); // probe → { box, measure, apply, width, rem }, while it is observed
let observer = null;

// What was last fitted for a chart of one kind in one container (its width, text size and
// measurements), so a chart rebuilt there (the heads figure draws a new map for each split)
// starts at the right size and needs no second pass: container → signature → fit.
const lastSeen = new WeakMap();

function remembered(memo) {
  return memo ? lastSeen.get(memo.container)?.get(memo.signature) : undefined;
}

function remember(memo, fit) {
  if (!memo) return;
  if (!lastSeen.has(memo.container)) lastSeen.set(memo.container, new Map());
  lastSeen.get(memo.container).set(memo.signature, fit);
}

function onResize(entries) {
  const jobs = [];
  for (const entry of entries) {
    const job = fitted.get(entry.target);
    if (!job) continue;
    if (!entry.target.isConnected) { // the chart was taken out of the page: let it go
      release(entry.target);
      continue;
    }
    const size = entry.borderBoxSize?.[0];
    const width = Math.floor(size ? size.inlineSize : entry.contentRect.width);
    const rem = size ? size.blockSize : entry.contentRect.height;
    if (!(width > 0 && rem > 0)) continue; // not rendered (a hidden panel): keep the last drawing
    if (width === job.width && rem === job.rem) continue;
    job.width = width;
    job.rem = rem;
    jobs.push(job);
  }
  const measured = jobs.map((job) => job.measure({ width: job.width, rem: job.rem }));
  jobs.forEach((job, i) => {
    remember(job.memo, { width: job.width, rem: job.rem, measured: measured[i] });
    job.apply(measured[i]);
  });
}

function release(probe) {
  observer?.unobserve(probe);
  fitted.delete(probe);
}

/**
 * Stops fitting the charts inside `root` (a figure that has gone), and any chart that is no
 * longer in a document: the shared observers must not keep them, or their figure, alive.
 */
export function releaseCharts(root) {
  for (const probe of [...fitted.keys()]) {
    if (!probe.isConnected || root.contains(probe)) release(probe);
  }
  releaseOnScreen(root);
}

/**
 * Fits a chart to `box` (an element whose width does not follow the chart's own size).
 * measure({ width, rem }) may read layout and returns what apply() needs; apply(measured)
 * only writes. `memo` ({ container, signature }) names charts that are drawn alike.
 * Returns what to draw with before the first report: { width, rem, measured } as last fitted
 * for the memo (measured: what measure() returned then), or `fallback` ({ width, rem }).
 */
export function fitChart(box, { measure, apply, fallback, memo = null }) {
  if (typeof ResizeObserver === 'undefined') return fallback;
  if (!observer) observer = new ResizeObserver(onResize);
  const probe = htmlElement('div', { class: 'chart-fit-probe', 'aria-hidden': 'true' }, null, box);
  const start = remembered(memo) ?? fallback;
  fitted.set(probe, { memo, measure, apply, width: start.width, rem: start.rem });
  observer.observe(probe, { box: 'border-box' });
  return start;
}

/** The root font size in px (16 unless the reader or the host page changed it). */
export const DEFAULT_REM = 16;
