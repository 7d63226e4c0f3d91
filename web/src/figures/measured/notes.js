// The measured figure's words around its plots: the plan before a run (what will be timed,
// and where the direct form must stop), where the timing runs, the slope fitted to each
// form's largest sizes, and the reason each form stopped.

import { createReadout } from '../../lib/controls/readout.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { formatCount, formatSignificant } from '../../lib/format/index.js';
import { EXPECTED_SLOPE, FORMS, largestWithinBudget, SLOPE_TOLERANCE, sizesUpTo, slope } from './plan.js';
import { DASH } from './table.js';

/** The slope readouts fit the last this many sizes of each form: the ones least made of overhead. */
const SLOPE_POINTS = 3;

/** What a run at these settings will time, said before it starts. */
export function planText({ d, precision, largest }, limits) {
  const sizes = sizesUpTo(largest);
  const directLimit = largestWithinBudget('direct', sizes, d, precision, limits);
  const directText = directLimit === largest ? 'both forms at every size'
    : `the streaming form at every size, the direct form up to n = ${formatCount(directLimit)} (past it, its n\u00d7n scores would pass the core\u2019s memory budget)`;
  return `Nothing is timed until you press Run. It times self-attention (m = n) at d = ${d} in ${precision}, `
    + `n = ${formatCount(sizes[0])}, ${formatCount(sizes[1])}, \u2026 ${formatCount(largest)}: ${directText}.`;
}

/** The line under the progress bar that says where the timing runs. */
export function whereText({ where, why }) {
  if (where === 'worker') {
    return 'Timed in a Web Worker with its own copy of the core, so the page stays responsive while it runs: this thread only draws.';
  }
  const reason = why === 'element'
    ? 'this element cannot start a Web Worker (its script may come from another site than this page)'
    : 'no Web Worker could start here';
  return `Timed on this page\u2019s own thread, in slices of at most 8 ms, because ${reason}. So the direct form stops `
    + 'where one call would take longer than a slice, and the streaming form runs over blocks of query rows, each block '
    + 'copying K and V into the core again: its times read somewhat higher than in a Worker.';
}

/** The slope readouts and the list of stops, under the plots; returns { clear(), draw(result) }. */
export function createSlopesAndStops(body) {
  const slopes = htmlElement('div', { class: 'readouts measured-slopes', hidden: '' }, null, body);
  const readouts = Object.fromEntries(FORMS.map((form) => [form, createReadout(slopes, `slope of the largest sizes, ${form}`, { initial: DASH })]));
  const busy = htmlElement('p', { class: 'measured-busy', role: 'status', hidden: '' }, null, body);
  const stops = htmlElement('ul', { class: 'measured-stops', 'aria-label': 'where each form stopped', hidden: '' }, null, body);

  return {
    /** Back to nothing measured. */
    clear() {
      stops.replaceChildren();
      stops.hidden = true;
      slopes.hidden = true;
      busy.hidden = true;
      busy.textContent = '';
      for (const readout of Object.values(readouts)) {
        readout.output.textContent = DASH;
        readout.note.textContent = '';
      }
    },

    draw(result) {
      slopes.hidden = !FORMS.some((form) => result.points[form].length >= 2);
      const far = [];
      for (const form of FORMS) {
        const points = result.points[form];
        const readout = readouts[form];
        if (points.length < 2) continue;
        const fitted = points.slice(-SLOPE_POINTS);
        const value = slope(fitted);
        readout.output.textContent = value === null ? DASH : formatSignificant(value, 2);
        readout.note.textContent = `fitted from n = ${formatCount(fitted[0].n)} to ${formatCount(fitted[fitted.length - 1].n)} (n\u00b2 has slope 2)`;
        // Judged once three sizes are in: the work grows as n², so a slope far from 2 is the
        // machine's doing (another program or tab took the processor while some sizes were timed).
        if (value !== null && fitted.length >= SLOPE_POINTS && Math.abs(value - EXPECTED_SLOPE) > SLOPE_TOLERANCE) far.push({ form, value });
      }
      const busyText = far.length === 0 ? '' : `The ${far.map((f) => `${f.form} form\u2019s slope (${formatSignificant(f.value, 2)})`).join(' and the ')} `
        + `${far.length > 1 ? 'are' : 'is'} far from the expected 2: the work grows as n\u00b2, so the machine was probably busy with `
        + 'something else while some sizes were timed. Run it again when it is quieter; the spread of each point shows how much its timings varied.';
      if (busy.textContent !== busyText) busy.textContent = busyText;
      busy.hidden = busyText === '';
      const reasons = FORMS.filter((form) => result.stops[form]);
      if (reasons.length !== stops.children.length) {
        stops.hidden = reasons.length === 0;
        stops.replaceChildren(...reasons.map((form) => {
          const { n, reason } = result.stops[form];
          return htmlElement('li', {}, `The ${form} form stopped before n = ${formatCount(n)}: ${reason}.`);
        }));
      }
    },
  };
}
