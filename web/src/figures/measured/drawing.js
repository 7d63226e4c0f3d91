// When the "measured in your browser" figure draws. The progress line follows every event, at
// most once a frame; the plots, the table and the notes follow new measurements at most every
// RESULTS_INTERVAL_MS (and at the end), so that the main thread's share of a run stays a few
// short frames a second.

import { formatCount, formatDuration } from '../../lib/format/index.js';
import { FORMS } from './plan.js';

const RESULTS_INTERVAL_MS = 250;
export const FORM_NAMES = { direct: 'direct', streaming: 'streaming' };

/**
 * @param {object} parts
 * @param {() => object|null} parts.record   the record to draw (record.js), or null for none
 * @param {() => boolean} parts.running      whether a run goes on
 * @param {HTMLProgressElement} parts.progress
 * @param {HTMLElement} parts.status
 * @param {object[]} parts.results           the charts, the table and the notes: each has draw(record)
 */
export function createMeasuredDrawing({ record, running, progress, status, results }) {
  let queued = false;
  let drawnVersion = -1;
  let lastResultsDraw = -Infinity;
  let resultsTimer = 0;

  function queue() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      draw();
    });
  }

  function draw() {
    const result = record();
    if (!result) return;
    drawProgress(result);
    if (result.version === drawnVersion) return;
    const wait = lastResultsDraw + RESULTS_INTERVAL_MS - performance.now();
    if (wait > 0 && running()) {
      clearTimeout(resultsTimer);
      resultsTimer = setTimeout(queue, wait);
      return;
    }
    lastResultsDraw = performance.now();
    drawnVersion = result.version;
    for (const part of results) part.draw(result);
  }

  function drawProgress(result) {
    progress.value = result.done;
    if (result.finished) {
      const count = FORMS.reduce((sum, form) => sum + result.points[form].length, 0);
      status.textContent = `Done: ${count} measurements in ${formatDuration(result.seconds)}.`;
    } else if (running() && result.step) {
      status.textContent = `n = ${formatCount(result.step.n)}, ${FORM_NAMES[result.step.form]}\u2026`;
    }
  }

  return {
    queue,
    /** A new run: its first measurements are drawn whatever the last run's count was. */
    restart() {
      drawnVersion = -1;
    },
    cancel() {
      clearTimeout(resultsTimer);
    },
  };
}
