// The two plots of the "measured in your browser" figure, both against n on log axes: the time
// of one call (each point with the spread of its repeated timings), with a line of slope 2
// (time ∝ n²) through the direct form's largest measurement, and the memory of the matrices each
// call made. Both axes reach a little past the points, so that no point sits on the frame. Drawn with the page's one plot
// primitive; each run makes them afresh, so that the n axis spans exactly the run's sizes.
// Until a run has measured something the panels show a line of text instead of empty axes.

import { createPlot } from '../../lib/charts/plot.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { formatBytes, formatCount, formatDuration } from '../../lib/format/index.js';
import { decades, squareLine } from './plan.js';

/** The n axis: the run's sizes and half a power of two more at each end. */
const paddedSizes = (sizes) => [sizes[0] / Math.SQRT2, sizes[sizes.length - 1] * Math.SQRT2];
/** Whole decades around the values, with at least a third of a decade's margin... in log terms, ×1.3. */
const paddedDecades = (values) => decades([...values.map((v) => v / 1.3), ...values.map((v) => v * 1.3)]);

const EMPTY = 'Press Run: the points appear here as they are measured.';

/** Builds both panels into `parent`; returns { reset(run), draw(run), clear() }. */
export function createMeasuredCharts(parent) {
  const panels = htmlElement('div', { class: 'figure-panels figure-panels-even measured-panels' }, null, parent);
  const panel = (title) => {
    const element = htmlElement('div', { class: 'figure-panel' }, null, panels);
    htmlElement('p', { class: 'panel-title' }, title, element);
    const empty = htmlElement('p', { class: 'measured-empty' }, EMPTY, element);
    return { element, empty, plot: null };
  };
  const time = panel('Time of one call against n (log axes)');
  const memory = panel('Memory of the matrices one call made (log axes)');

  function makePlots({ sizes }) {
    const xDomain = paddedSizes(sizes);
    const common = {
      xLabel: 'tokens n = m (log scale)', xScale: 'log2', yScale: 'log10', xDomain, formatX: formatCount, marginLeft: 70,
    };
    time.plot?.element.remove();
    memory.plot?.element.remove();
    time.plot = createPlot(time.element, {
      ...common,
      label: 'measured time of one call against n, direct and streaming, with a line of slope 2, log scales',
      exportName: 'time of one call against n',
      yLabel: 'time of one call (log scale)',
      formatY: (v) => formatDuration(v, 1),
    });
    memory.plot = createPlot(memory.element, {
      ...common,
      label: 'memory of the matrices one call made against n, direct and streaming, log scales',
      exportName: 'memory of one call against n',
      yLabel: 'bytes (log scale)',
      formatY: formatBytes,
    });
    for (const p of [time, memory]) p.plot.element.hidden = true;
  }

  function show(p, visible) {
    p.empty.hidden = visible;
    if (p.plot) p.plot.element.hidden = !visible;
  }

  return {
    reset(run) {
      makePlots(run);
      for (const p of [time, memory]) show(p, false);
    },

    draw(run) {
      const { direct, streaming } = run.points;
      if (!direct.length && !streaming.length) return;
      const xDomain = paddedSizes(run.sizes);
      const series = (points, name, value) => ({ name, x: points.map((p) => p.n), y: points.map(value) });
      const timed = (points, name) => ({
        ...series(points, name, (p) => p.seconds),
        low: points.map((p) => p.low ?? p.seconds),
        high: points.map((p) => p.high ?? p.seconds),
      });

      const yTime = paddedDecades([...direct, ...streaming].flatMap((p) => [p.seconds, p.low ?? p.seconds, p.high ?? p.seconds]));
      const anchorPoints = direct.length ? direct : streaming;
      const anchor = anchorPoints[anchorPoints.length - 1];
      const square = squareLine({ x: anchor.n, y: anchor.seconds }, xDomain, yTime);
      const timeSeries = [
        timed(direct, 'direct (makes the n\u00d7m matrices)'),
        timed(streaming, 'streaming (never makes them)'),
      ];
      if (square) {
        timeSeries.push({ name: `slope 2 (time \u221d n\u00b2), through n = ${formatCount(anchor.n)}`, ...square });
      }
      // The direct form's last size within the core's memory budget, when the run goes past it.
      const marker = run.directLimit !== null && run.directLimit < xDomain[1]
        ? { x: run.directLimit, label: `direct form\u2019s limit: n = ${formatCount(run.directLimit)}` } : null;
      time.plot.update({ series: timeSeries, yDomain: yTime, marker });

      const yMemory = paddedDecades([...direct, ...streaming].map((p) => p.bytes));
      memory.plot.update({
        series: [
          series(direct, 'direct: scores, scaled scores, weights and output', (p) => p.bytes),
          series(streaming, 'streaming: the output alone', (p) => p.bytes),
        ],
        yDomain: yMemory,
        marker,
      });
      for (const p of [time, memory]) show(p, true);
    },

    clear() {
      for (const p of [time, memory]) show(p, false);
    },
  };
}
