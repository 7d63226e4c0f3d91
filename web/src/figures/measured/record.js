// What one run of the "measured in your browser" figure has measured so far: a plain record that
// the run's events fill in (run.js sends them) and the figure draws from. No page here.

import { FORMS, largestWithinBudget, sizesUpTo } from './plan.js';

/** An empty record for a run at these settings ({ d, precision, largest }) under the core's limits. */
export function freshRecord({ d, precision, largest }, limits) {
  const sizes = sizesUpTo(largest);
  return {
    d, precision, largest, sizes,
    points: Object.fromEntries(FORMS.map((form) => [form, []])),
    stops: {},
    steps: sizes.length * FORMS.length,
    done: 0,
    step: null,
    finished: false,
    version: 0, // counts the measurements and stops, so a drawing knows whether it is behind
    directLimit: largestWithinBudget('direct', sizes, d, precision, limits),
  };
}

/**
 * Enters a measuring event (step, point, stop or done) into the record; any other event is left
 * to the caller. Returns whether the event was one of these.
 */
export function recordEvent(record, event) {
  switch (event.type) {
    case 'step':
      record.done = event.index - 1;
      record.step = event;
      return true;
    case 'point':
      record.points[event.form].push(event);
      record.version += 1;
      return true;
    case 'stop':
      record.stops[event.form] = event;
      record.version += 1;
      return true;
    case 'done':
      record.version += 1;
      record.done = record.steps;
      record.finished = true;
      record.seconds = event.seconds;
      return true;
    default:
      return false;
  }
}
