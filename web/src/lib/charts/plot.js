// A small SVG line plot: several series against a shared x axis (linear or log2), axis
// labels, a legend, and one optional vertical marker. Series colours and dash patterns
// come from CSS classes (plot-series-0, -1, …), so they follow the light/dark theme and
// stay distinguishable without colour.

import { range, tickStep, ticks } from 'd3-array';
import { scaleLinear, scaleLog } from 'd3-scale';
import { registerExportable } from '../export/registry.js';
import { formatPowerOfTen, formatSignificant } from '../format/index.js';
import { htmlElement, svgElement } from '../dom/elements.js';

const WIDTH = 480;
const HEIGHT = 280;
const DEFAULT_MARGIN = { top: 18, right: 18, bottom: 46, left: 56 };

/** Round-number ticks (1, 2, 5 × 10^k) covering [low, high]: the finest such step that gives at most `count` intervals. */
export function linearTicks(low, high, count = 5) {
  if (!(high - low > 0)) return [low];
  for (let c = count; c > 1; c -= 1) {
    if ((high - low) / tickStep(low, high, c) <= count + 1e-9) return ticks(low, high, c);
  }
  return ticks(low, high, 1);
}

/** Whole powers of `base` in [low, high], every so many so that at most `count` remain. */
function powerTicks(base, low, high, count) {
  const log = base === 2 ? Math.log2 : Math.log10;
  const first = Math.ceil(log(low) - 1e-9);
  const last = Math.floor(log(high) + 1e-9);
  const every = Math.max(1, Math.ceil((last - first + 1) / count));
  return range(first, last + 1, every).map((k) => base ** k);
}

/** Powers of two in [low, high], thinned so that at most `count` remain. */
export const log2Ticks = (low, high, count = 8) => powerTicks(2, low, high, count);

/** Powers of ten in [low, high], thinned so that at most `count` remain. */
export const log10Ticks = (low, high, count = 7) => powerTicks(10, low, high, count);

// Each axis kind: its d3 scale and its ticks.
const SCALES = {
  linear: { scale: () => scaleLinear(), ticks: linearTicks },
  log2: { scale: () => scaleLog().base(2), ticks: log2Ticks },
  log10: { scale: () => scaleLog().base(10), ticks: log10Ticks },
};

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string} options.label              accessible name of the plot
 * @param {string} options.xLabel
 * @param {string} options.yLabel
 * @param {'linear'|'log2'|'log10'} [options.xScale]
 * @param {'linear'|'log10'} [options.yScale]
 * @param {[number, number]} [options.xDomain]  default: the data's range
 * @param {[number, number]} [options.yDomain]  default: [0, the data's maximum]; on a log10
 *   y scale, the data's positive range widened to whole powers of ten
 * @param {(v: number) => string} [options.formatX]
 * @param {(v: number) => string} [options.formatY]  default on a log10 y scale: formatPowerOfTen
 * @param {number} [options.marginLeft]  room for the y tick labels (default 56), e.g. wider ones with units ("100 µs")
 * @param {string} [options.exportName]  name in the figure's Export menu (default: label); every
 *   plot registers itself there as a picture and as its data series (see ../export/registry.js)
 */
export function createPlot(container, options) {
  const {
    label, xLabel, yLabel, xScale = 'linear', yScale = 'linear', xDomain = null, yDomain = null,
    formatX = (v) => formatSignificant(v, 4),
    formatY = yScale === 'log10' ? formatPowerOfTen : (v) => formatSignificant(v, 3),
  } = options;
  if (!SCALES[xScale] || !SCALES[yScale] || yScale === 'log2') throw new Error(`plot: unknown scale ${xScale}/${yScale}`);
  const MARGIN = { ...DEFAULT_MARGIN, left: options.marginLeft ?? DEFAULT_MARGIN.left };
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;

  const wrapper = htmlElement('div', { class: 'plot' }, null, container);
  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': label, class: 'plot-svg' }, wrapper);
  const axes = svgElement('g', { class: 'plot-axes', 'aria-hidden': 'true' }, svg);
  const lines = svgElement('g', { class: 'plot-lines', 'aria-hidden': 'true' }, svg);
  const markerGroup = svgElement('g', { class: 'plot-marker', 'aria-hidden': 'true', visibility: 'hidden' }, svg);
  const markerLine = svgElement('line', { y1: MARGIN.top, y2: MARGIN.top + plotHeight }, markerGroup);
  const markerText = svgElement('text', { y: MARGIN.top - 5, 'text-anchor': 'middle', class: 'plot-marker-label' }, markerGroup);
  const pointGroup = svgElement('g', { class: 'plot-points', 'aria-hidden': 'true' }, svg);
  const legend = htmlElement('ul', { class: 'plot-legend' }, null, wrapper);

  svgElement('text', {
    x: MARGIN.left + plotWidth / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'plot-axis-title',
  }, svg).textContent = xLabel;
  svgElement('text', {
    x: 14, y: MARGIN.top + plotHeight / 2, 'text-anchor': 'middle', class: 'plot-axis-title',
    transform: `rotate(-90 14 ${MARGIN.top + plotHeight / 2})`,
  }, svg).textContent = yLabel;

  let x = null; // value → pixel, set by update()
  let xRange = null;

  function drawAxes(xLow, xHigh, yLow, yHigh, y) {
    axes.replaceChildren();
    svgElement('line', { x1: MARGIN.left, x2: MARGIN.left + plotWidth, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight, class: 'plot-axis' }, axes);
    svgElement('line', { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + plotHeight, class: 'plot-axis' }, axes);
    const xTicks = SCALES[xScale].ticks(xLow, xHigh);
    for (const t of xTicks) {
      const px = x(t);
      svgElement('line', { x1: px, x2: px, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight + 5, class: 'plot-axis' }, axes);
      svgElement('text', { x: px, y: MARGIN.top + plotHeight + 18, 'text-anchor': 'middle', class: 'plot-tick' }, axes).textContent = formatX(t);
    }
    for (const t of SCALES[yScale].ticks(yLow, yHigh)) {
      const py = y(t);
      svgElement('line', { x1: MARGIN.left, x2: MARGIN.left + plotWidth, y1: py, y2: py, class: 'plot-grid' }, axes);
      svgElement('text', { x: MARGIN.left - 7, y: py, 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'plot-tick' }, axes).textContent = formatY(t);
    }
  }

  function placeMarker(marker) {
    if (!marker || !x || marker.x < xRange[0] || marker.x > xRange[1]) {
      markerGroup.setAttribute('visibility', 'hidden');
      return;
    }
    const px = x(marker.x);
    markerLine.setAttribute('x1', px);
    markerLine.setAttribute('x2', px);
    markerText.setAttribute('x', Math.min(WIDTH - MARGIN.right - 20, Math.max(MARGIN.left + 20, px)));
    markerText.textContent = marker.label ?? formatX(marker.x);
    markerGroup.setAttribute('visibility', 'visible');
  }

  let drawnSeries = null; // the last series drawn, for the Export menu
  let drawnPaths = [];
  registerExportable(wrapper, {
    kind: 'plot', name: options.exportName ?? label, svg,
    getSeries: () => (drawnSeries ? { xLabel, yLabel, series: drawnSeries } : null),
    // The legend is HTML beside the SVG: the picture file gets it as drawn here, with each
    // series' stroke as the page shows it.
    getLegend: () => {
      if (!drawnSeries) return null;
      const font = getComputedStyle(legend);
      return {
        fontFamily: font.fontFamily,
        color: font.color,
        items: drawnSeries.map((s, index) => {
          const style = drawnPaths[index] ? getComputedStyle(drawnPaths[index]) : null;
          return { name: s.name, stroke: style?.stroke, strokeWidth: style?.strokeWidth, strokeDasharray: style?.strokeDasharray };
        }),
      };
    },
  });

  return {
    element: wrapper,

    /**
     * Redraws the plot. series: [{ name, x: number[], y: number[], line?: false, labels?: string[] }]
     * (line: false draws the measured points alone, with nothing interpolated between them;
     * labels: a text printed above each point, e.g. its value); marker: { x, label } or null;
     * points: labelled dots drawn on top, e.g. where two curves cross: [{ x, y, label, placement }]
     * (placement 'below-right' or 'above-left' of the dot);
     * yDomain: overrides the plot's y range for this drawing (e.g. when the data's scale changes).
     */
    update({ series, marker = null, points = [], yDomain: domainNow = yDomain }) {
      drawnSeries = series.map((s) => ({ name: s.name, x: Array.from(s.x), y: Array.from(s.y) }));
      const allX = series.flatMap((s) => Array.from(s.x));
      const allY = series.flatMap((s) => Array.from(s.y)).filter(Number.isFinite);
      const [xLow, xHigh] = xDomain ?? [Math.min(...allX), Math.max(...allX)];
      const positiveY = allY.filter((v) => v > 0);
      const logLow = positiveY.length ? Math.floor(Math.log10(Math.min(...positiveY))) : 0;
      const logHigh = positiveY.length ? Math.max(logLow + 1, Math.ceil(Math.log10(Math.max(...positiveY)))) : 1;
      const [yLow, yHigh] = domainNow ?? (yScale === 'log10' ? [10 ** logLow, 10 ** logHigh] : [0, Math.max(...allY) || 1]);
      x = SCALES[xScale].scale().domain([xLow, xHigh]).range([MARGIN.left, MARGIN.left + plotWidth]);
      const y = SCALES[yScale].scale().domain([yLow, yHigh]).range([MARGIN.top + plotHeight, MARGIN.top]);
      xRange = [xLow, xHigh];

      drawAxes(xLow, xHigh, yLow, yHigh, y);
      lines.replaceChildren();
      legend.replaceChildren();
      drawnPaths = [];
      series.forEach((s, index) => {
        const points = Array.from(s.x, (xv, i) => [xv, s.y[i]])
          .filter(([xv, yv]) => Number.isFinite(yv) && (yScale !== 'log10' || yv > 0) && (xScale === 'linear' || xv > 0));
        const d = points.map(([xv, yv], i) => `${i ? 'L' : 'M'}${x(xv).toFixed(2)},${y(yv).toFixed(2)}`).join('');
        const joined = s.line !== false;
        drawnPaths[index] = svgElement('path', { d: joined ? d : '', class: `plot-line plot-series-${index}` }, lines);
        const labelOf = new Map(Array.from(s.x, (xv, i) => [xv, s.labels?.[i]]));
        for (const [xv, yv] of points) {
          svgElement('circle', {
            cx: x(xv).toFixed(2), cy: y(yv).toFixed(2), r: joined ? 2.5 : 4, class: `plot-point plot-series-${index}`,
          }, lines);
          const text = labelOf.get(xv);
          if (text) {
            svgElement('text', {
              x: x(xv).toFixed(2), y: (y(yv) - 9).toFixed(2), 'text-anchor': 'middle', class: 'plot-point-label',
            }, lines).textContent = text;
          }
        }
        const item = htmlElement('li', {}, null, legend);
        const swatch = svgElement('svg', { viewBox: '0 0 24 8', class: 'plot-swatch', 'aria-hidden': 'true' }, item);
        if (joined) svgElement('line', { x1: 1, x2: 23, y1: 4, y2: 4, class: `plot-line plot-series-${index}` }, swatch);
        else svgElement('circle', { cx: 12, cy: 4, r: 3.5, class: `plot-point plot-series-${index}` }, swatch);
        item.append(s.name);
      });
      pointGroup.replaceChildren();
      for (const point of points) {
        const px = x(point.x);
        const py = y(point.y);
        if (!(px >= MARGIN.left - 0.5 && px <= MARGIN.left + plotWidth + 0.5 && py >= MARGIN.top - 0.5 && py <= MARGIN.top + plotHeight + 0.5)) continue;
        svgElement('circle', { cx: px.toFixed(2), cy: py.toFixed(2), r: 4.5, class: 'plot-annotation' }, pointGroup);
        if (point.label) {
          // placement 'above-left' | 'below-right'; by default the side that keeps the text inside the plot.
          const placement = point.placement ?? (px < MARGIN.left + plotWidth * 0.6 ? 'below-right' : 'above-left');
          const right = placement === 'below-right';
          svgElement('text', {
            x: (px + (right ? 8 : -8)).toFixed(2), y: (py + (right ? 16 : -9)).toFixed(2), 'text-anchor': right ? 'start' : 'end',
            class: 'plot-annotation-label',
          }, pointGroup).textContent = point.label;
        }
      }
      placeMarker(marker);
    },

    /** Moves only the marker, leaving the series as they are. */
    setMarker(marker) {
      placeMarker(marker);
    },
  };
}
