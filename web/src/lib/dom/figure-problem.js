// The paragraph a figure shows when the core refuses to compute it: hidden while all is well,
// an alert with the core's message when not. The figure keeps whatever it drew last.

import { htmlElement } from './elements.js';

/**
 * Adds the (hidden) paragraph to `parent`. Returns { element, show(error, what), clear() }:
 * show says "The core could not <what>: <the error's message>" (what: default "compute this
 * figure"); clear hides it again once the figure computes.
 */
export function createFigureProblem(parent) {
  const paragraph = htmlElement('p', { class: 'figure-error', role: 'alert', hidden: '' }, null, parent);
  const problem = {
    element: paragraph,
    show(error, what = 'compute this figure') {
      paragraph.textContent = `The core could not ${what}: ${error.message}`;
      paragraph.hidden = false;
    },
    clear() {
      if (!paragraph.hidden) paragraph.hidden = true; // a key press clears it every time
    },
  };
  return problem;
}
