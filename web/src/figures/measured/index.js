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
// input is never held up; this module starts and stops runs; record.js keeps what a run measured
// and drawing.js draws it, at most once a frame.

import { figureBody, htmlElement } from '../../lib/dom/elements.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { formatCount } from '../../lib/format/index.js';
import { createMeasuredCharts } from './charts.js';
import { PRECISIONS, WIDTHS, createMeasuredControls } from './controls.js';
import { FORM_NAMES, createMeasuredDrawing } from './drawing.js';
import { createSlopesAndStops, planText, whereText } from './notes.js';
import { LARGEST_CHOICES } from './plan.js';
import { freshRecord, recordEvent } from './record.js';
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

  let run = null; // { stop() } while a run goes on
  let result = null; // what the current (or last) run measured (record.js)
  const drawing = createMeasuredDrawing({
    record: () => result, running: () => run !== null, progress, status, results: [charts, table, notes],
  });

  const settings = () => ({
    d: Number(state.get('measured.d')),
    precision: state.get('measured.precision'),
    largest: Number(state.get('measured.nmax')),
  });

  const describePlan = () => { where.textContent = planText(settings(), lab.limits); };

  function start() {
    problem.clear();
    result = freshRecord(settings(), lab.limits);
    drawing.restart();
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
    if (event.type === 'error') {
      stop(`The run stopped: ${event.message}`);
      problem.show(new Error(event.message), 'finish the measurement');
      return;
    }
    if (event.type === 'where') where.textContent = whereText(event);
    else if (recordEvent(measured, event) && event.type === 'done') stop();
    drawing.queue();
  }

  runButton.addEventListener('click', () => {
    if (run) {
      const at = result?.step;
      stop(at ? `Stopped at n = ${formatCount(at.n)}, ${FORM_NAMES[at.form]}. Press Run to measure again.` : 'Stopped.');
      drawing.queue();
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
    drawing.cancel();
    result = null; // a frame already asked for draws nothing
  });

  describePlan();
  controls.setRunning(false);
  if (state.get('measured.run')) start();
}
