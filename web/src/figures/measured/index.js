// Figure "Measured in your browser": the lesson's "cost grows as n²" timed on the reader's own
// machine. Pressing Run times self-attention (n = m) at n = 8, 16, … up to the largest size
// asked for, in the direct form (which makes the n×m scores and weights) and the streaming
// form (which never does), and plots the time of one call and the memory each call made
// against n on log axes, with a line of slope 2 (n²) beside the points. The direct form
// stops, and says why, where its n×m matrix would pass the core's budget (lab.limits) or a
// call passes this figure's time budget. Every time and size shown was measured in this run.
//
// Nothing runs until the reader presses Run (or a link says run=1). The timing happens in a
// Web Worker where one can start, else on this thread in short slices (run.js), so the page's
// input is never held up; this module only draws, at most once a frame.

import { createPicker } from '../../lib/controls/picker.js';
import { createReadout } from '../../lib/controls/readout.js';
import { figureBody, htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { formatBytes, formatCount, formatDuration, formatSignificant } from '../../lib/format/index.js';
import { createMeasuredCharts } from './charts.js';
import { FORMS, LARGEST_CHOICES, largestWithinBudget, sizesUpTo, slope } from './plan.js';
import { startRun } from './run.js';
import './measured.css'; // this figure's styles, bundled into styles.css

const WIDTHS = ['16', '32', '64', '128'];
const PRECISIONS = [
  { value: 'float32', text: 'float32' },
  { value: 'float64', text: 'float64' },
];

export const SETTINGS = {
  'measured.d': { type: 'enum', values: WIDTHS, default: '64' },
  'measured.precision': { type: 'enum', values: PRECISIONS.map((p) => p.value), default: 'float32' },
  'measured.nmax': { type: 'enum', values: LARGEST_CHOICES.map(String), default: '16384' },
  // A link may ask for the run to start on opening; pressing Run never writes it.
  'measured.run': { type: 'enum', values: ['0', '1'], default: '0' },
};

const FORM_NAMES = { direct: 'direct', streaming: 'streaming' };
const DASH = '\u2014';
/** The slope readouts fit the last this many sizes of each form: the ones least made of overhead. */
const SLOPE_POINTS = 3;
const RESULTS_INTERVAL_MS = 250;

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);
  const body = figureBody(element, 'figure-body measured');

  // ---- Controls -------------------------------------------------------------------------------
  const controls = htmlElement('div', { class: 'figure-controls measured-controls' }, null, body);
  const actions = htmlElement('div', { class: 'measured-actions' }, null, controls);
  const runButton = htmlElement('button', { type: 'button', class: 'measured-button measured-primary' }, 'Run', actions);
  const picker = (key, label, options, hint) => createPicker(controls, {
    label, options, hint, value: state.get(key), onChange: (value) => state.set(key, value),
  });
  const widthPicker = picker('measured.d', 'width d', WIDTHS.map((v) => ({ value: v, text: v })), 'of queries, keys and values');
  const precisionPicker = picker('measured.precision', 'precision', PRECISIONS, 'float32: WebAssembly SIMD, as models run');
  const largestPicker = picker('measured.nmax', 'largest n', LARGEST_CHOICES.map((n) => ({ value: String(n), text: formatCount(n) })),
    'the sizes double from n = 8');
  const pickers = [widthPicker, precisionPicker, largestPicker];

  const progressLine = htmlElement('div', { class: 'measured-progress' }, null, body);
  const progressId = uniqueId('progress');
  htmlElement('label', { for: progressId, class: 'measured-progress-label' }, 'progress', progressLine);
  const progress = htmlElement('progress', { id: progressId, max: '1', value: '0' }, null, progressLine);
  const status = htmlElement('p', { class: 'measured-status', role: 'status', 'aria-live': 'polite' }, null, progressLine);
  const where = htmlElement('p', { class: 'measured-where' }, null, body);

  const charts = createMeasuredCharts(body);
  const slopes = htmlElement('div', { class: 'readouts measured-slopes', hidden: '' }, null, body);
  const slopeReadouts = Object.fromEntries(FORMS.map((form) => [form, createReadout(slopes, `slope of the largest sizes, ${form}`, { initial: DASH })]));
  const stops = htmlElement('ul', { class: 'measured-stops', 'aria-label': 'where each form stopped', hidden: '' }, null, body);
  const table = createTable(body);
  const problem = createFigureProblem(body);

  // ---- The run and what it has measured -------------------------------------------------------
  let run = null; // { stop() } while a run goes on
  let result = null; // what the current (or last) run measured
  let drawQueued = false;

  const settings = () => ({
    d: Number(state.get('measured.d')),
    precision: state.get('measured.precision'),
    largest: Number(state.get('measured.nmax')),
  });

  function describePlan() {
    const { d, precision, largest } = settings();
    const sizes = sizesUpTo(largest);
    const directLimit = largestWithinBudget('direct', sizes, d, precision, lab.limits);
    const directText = directLimit === largest ? 'both forms at every size'
      : `the streaming form at every size, the direct form up to n = ${formatCount(directLimit)} (past it, its n\u00d7n scores would pass the core\u2019s memory budget)`;
    where.textContent = `Nothing is timed until you press Run. It times self-attention (m = n) at d = ${d} in ${precision}, `
      + `n = ${formatCount(sizes[0])}, ${formatCount(sizes[1])}, \u2026 ${formatCount(largest)}: ${directText}.`;
  }

  function fresh() {
    const { d, precision, largest } = settings();
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
      directLimit: largestWithinBudget('direct', sizes, d, precision, lab.limits),
    };
  }

  function setRunning(running) {
    runButton.textContent = running ? 'Stop' : 'Run';
    runButton.setAttribute('aria-label', running ? 'Stop measuring' : 'Run the measurement');
    for (const p of pickers) p.select.disabled = running;
  }

  function start() {
    problem.clear();
    result = fresh();
    drawnVersion = -1;
    charts.reset(result);
    table.reset(result);
    stops.replaceChildren();
    stops.hidden = true;
    slopes.hidden = true;
    for (const readout of Object.values(slopeReadouts)) {
      readout.output.textContent = DASH;
      readout.note.textContent = '';
    }
    progress.max = result.steps;
    progress.value = 0;
    status.textContent = 'Starting\u2026';
    setRunning(true);
    const measured = result; // this run's record: events of a run replaced since are dropped
    const { d, precision, largest } = measured;
    run = startRun({ lab, options: { d, precision, largest }, onEvent: (event) => receive(measured, event) });
  }

  function stop(message) {
    run?.stop();
    run = null;
    setRunning(false);
    if (message) status.textContent = message;
  }

  function receive(measured, event) {
    if (measured !== result) return; // from a run that has been replaced
    if (!body.isConnected) { // the figure left the page (an element renamed or removed): its run ends
      stop();
      return;
    }
    switch (event.type) {
      case 'where':
        where.textContent = whereText(event);
        break;
      case 'step':
        measured.done = event.index - 1;
        measured.step = event;
        break;
      case 'point':
        measured.points[event.form].push(event);
        measured.version += 1;
        break;
      case 'stop':
        measured.stops[event.form] = event;
        measured.version += 1;
        break;
      case 'done':
        measured.version += 1;
        measured.done = measured.steps;
        measured.finished = true;
        measured.seconds = event.seconds;
        stop();
        break;
      case 'error':
        stop(`The run stopped: ${event.message}`);
        problem.show(new Error(event.message), 'finish the measurement');
        return;
      default:
        break;
    }
    queueDraw();
  }

  // The progress line follows every event, at most once a frame; the plots, the table and the
  // notes follow new measurements at most every RESULTS_INTERVAL_MS (and at the end), so that
  // the main thread's share of a run stays a few short frames a second.
  let drawnVersion = -1;
  let lastResultsDraw = -Infinity;
  let resultsTimer = 0;

  function queueDraw() {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      draw();
    });
  }

  function draw() {
    if (!result) return;
    drawProgress();
    if (result.version === drawnVersion) return;
    const wait = lastResultsDraw + RESULTS_INTERVAL_MS - performance.now();
    if (wait > 0 && run) {
      clearTimeout(resultsTimer);
      resultsTimer = setTimeout(queueDraw, wait);
      return;
    }
    lastResultsDraw = performance.now();
    drawnVersion = result.version;
    drawResults();
  }

  function drawProgress() {
    progress.value = result.done;
    if (result.finished) {
      const count = FORMS.reduce((sum, form) => sum + result.points[form].length, 0);
      status.textContent = `Done: ${count} measurements in ${formatDuration(result.seconds)}.`;
    } else if (run && result.step) {
      status.textContent = `n = ${formatCount(result.step.n)}, ${FORM_NAMES[result.step.form]}\u2026`;
    }
  }

  function drawResults() {
    slopes.hidden = !FORMS.some((form) => result.points[form].length >= 2);
    charts.draw(result);
    table.draw(result);
    for (const form of FORMS) {
      const points = result.points[form];
      const readout = slopeReadouts[form];
      if (points.length < 2) continue;
      const fitted = points.slice(-SLOPE_POINTS);
      const value = slope(fitted);
      readout.output.textContent = value === null ? DASH : formatSignificant(value, 2);
      readout.note.textContent = `fitted from n = ${formatCount(fitted[0].n)} to ${formatCount(fitted[fitted.length - 1].n)} (n\u00b2 has slope 2)`;
    }
    const reasons = FORMS.filter((form) => result.stops[form]);
    if (reasons.length !== stops.children.length) {
      stops.hidden = reasons.length === 0;
      stops.replaceChildren(...reasons.map((form) => {
        const { n, reason } = result.stops[form];
        return htmlElement('li', {}, `The ${form} form stopped before n = ${formatCount(n)}: ${reason}.`);
      }));
    }
  }

  runButton.addEventListener('click', () => {
    if (run) {
      const at = result?.step;
      stop(at ? `Stopped at n = ${formatCount(at.n)}, ${FORM_NAMES[at.form]}. Press Run to measure again.` : 'Stopped.');
      queueDraw();
    } else {
      start();
    }
  });

  // A new setting makes the last run's numbers answers to another question: they go.
  state.subscribe(['measured.d', 'measured.precision', 'measured.nmax'], (value, key) => {
    ({ 'measured.d': widthPicker, 'measured.precision': precisionPicker, 'measured.nmax': largestPicker })[key].set(value);
    if (run) return;
    result = null;
    charts.clear();
    table.clear();
    stops.hidden = true;
    slopes.hidden = true;
    progress.value = 0;
    status.textContent = '';
    for (const readout of Object.values(slopeReadouts)) {
      readout.output.textContent = DASH;
      readout.note.textContent = '';
    }
    describePlan();
  });

  // A figure that leaves the page ends its run (the Worker, or the slices on this thread).
  lifetime?.add(() => {
    stop();
    clearTimeout(resultsTimer);
    result = null; // a frame already asked for draws nothing
  });

  describePlan();
  setRunning(false);
  if (state.get('measured.run') === '1') start();
}

/** The line under the progress bar that says where the timing runs. */
function whereText({ where, why }) {
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

/** The table of every measurement: n, and each form's time and memory. */
function createTable(parent) {
  const wrap = htmlElement('div', { class: 'measured-table-wrap', role: 'region', tabindex: '0', hidden: '' }, null, parent);
  const captionId = uniqueId('measured-caption');
  wrap.setAttribute('aria-labelledby', captionId);
  const tableElement = htmlElement('table', { class: 'figure-table measured-table' }, null, wrap);
  htmlElement('caption', { id: captionId }, 'Each size as measured: the time of one call (median) and the memory of the matrices it made', tableElement);
  for (const span of ['1', '2', '2']) htmlElement('colgroup', { span }, null, tableElement);
  const head = htmlElement('thead', {}, null, tableElement);
  const formRow = htmlElement('tr', {}, null, head);
  htmlElement('th', { scope: 'col', rowspan: '2' }, 'n', formRow);
  for (const form of FORMS) htmlElement('th', { scope: 'colgroup', colspan: '2', class: 'measured-form' }, form, formRow);
  const quantityRow = htmlElement('tr', {}, null, head);
  for (const form of FORMS) {
    htmlElement('th', { scope: 'col', 'aria-label': `${form}: time` }, 'time', quantityRow);
    htmlElement('th', { scope: 'col', 'aria-label': `${form}: memory` }, 'memory', quantityRow);
  }
  const rows = htmlElement('tbody', {}, null, tableElement);
  let cells = new Map(); // n → { direct: { time, memory }, streaming: { … } }

  return {
    reset({ sizes }) {
      rows.replaceChildren();
      cells = new Map();
      for (const n of sizes) {
        const row = htmlElement('tr', {}, null, rows);
        htmlElement('th', { scope: 'row', class: 'measured-number' }, formatCount(n), row);
        const entry = {};
        for (const form of FORMS) {
          entry[form] = {
            time: htmlElement('td', { class: 'measured-number' }, DASH, row),
            memory: htmlElement('td', { class: 'measured-number' }, DASH, row),
          };
        }
        cells.set(n, entry);
      }
      wrap.hidden = false;
    },
    draw({ points, stops }) {
      for (const form of FORMS) {
        for (const point of points[form]) {
          const cell = cells.get(point.n)?.[form];
          if (!cell || cell.time.dataset.seconds) continue;
          cell.time.textContent = formatDuration(point.seconds);
          cell.time.dataset.seconds = String(point.seconds);
          cell.memory.textContent = formatBytes(point.bytes);
          cell.memory.dataset.bytes = String(point.bytes);
        }
        const stopped = stops[form];
        if (!stopped) continue;
        for (const [n, entry] of cells) {
          if (n < stopped.n || entry[form].time.dataset.seconds) continue;
          entry[form].time.textContent = 'stopped';
          entry[form].memory.textContent = DASH;
        }
      }
    },
    clear() {
      rows.replaceChildren();
      cells = new Map();
      wrap.hidden = true;
    },
  };
}
