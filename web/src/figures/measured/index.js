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

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { formatCount, formatDuration } from '../../lib/format/index.js';
import { createMeasuredCharts } from './charts.js';
import { PRECISIONS, WIDTHS, createMeasuredControls } from './controls.js';
import { createSlopesAndStops, planText, whereText } from './notes.js';
import { FORMS, LARGEST_CHOICES, largestWithinBudget, sizesUpTo } from './plan.js';
import { startRun } from './run.js';
import { createMeasuredTable } from './table.js';
import './measured.css'; // this figure's styles, bundled into styles.css

export const SETTINGS = {
  'measured.d': { type: 'enum', values: WIDTHS, default: '64' },
  'measured.precision': { type: 'enum', values: PRECISIONS.map((p) => p.value), default: 'float32' },
  'measured.nmax': { type: 'enum', values: LARGEST_CHOICES.map(String), default: '16384' },
  // A link may ask for the run to start on opening; pressing Run never writes it.
  'measured.run': { type: 'boolean', default: false },
};

const FORM_NAMES = { direct: 'direct', streaming: 'streaming' };
const RESULTS_INTERVAL_MS = 250;

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);
  const body = figureBody(element, 'figure-body measured');

  const controls = createMeasuredControls(body, { state });
  const { runButton, progress, status } = controls;
  const where = htmlElement('p', { class: 'measured-where' }, null, body);
  const charts = createMeasuredCharts(body);
  const notes = createSlopesAndStops(body);
  const table = createMeasuredTable(body);
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

  const describePlan = () => { where.textContent = planText(settings(), lab.limits); };

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

  function start() {
    problem.clear();
    result = fresh();
    drawnVersion = -1;
    charts.reset(result);
    table.reset(result);
    notes.clear();
    progress.max = result.steps;
    progress.value = 0;
    status.textContent = 'Starting\u2026';
    controls.setRunning(true);
    const measured = result; // this run's record: events of a run replaced since are dropped
    const { d, precision, largest } = measured;
    run = startRun({ lab, options: { d, precision, largest }, onEvent: (event) => receive(measured, event) });
  }

  function stop(message) {
    run?.stop();
    run = null;
    controls.setRunning(false);
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
    charts.draw(result);
    table.draw(result);
    notes.draw(result);
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
    controls.show(key, value);
    if (run) return;
    result = null;
    charts.clear();
    table.clear();
    notes.clear();
    progress.value = 0;
    status.textContent = '';
    describePlan();
  });

  // A figure that leaves the page ends its run (the Worker, or the slices on this thread).
  lifetime?.add(() => {
    stop();
    clearTimeout(resultsTimer);
    result = null; // a frame already asked for draws nothing
  });

  describePlan();
  controls.setRunning(false);
  if (state.get('measured.run')) start();
}
