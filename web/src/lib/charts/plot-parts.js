// What the plot (plot.js) draws on each update, as functions of the scales and the frame it has
// sized: the domains of the data, the axes with their ticks and grid, each series with its
// points and legend item, and the labelled annotation dots.

import { htmlElement, setAttributes, setText, svgElement } from '../dom/elements.js';

/**
 * The x and y domains of a drawing: the given ones, else the data's x range and, for y, 0 to
 * the largest value (or, on a log10 axis, the positive values widened to whole powers of ten).
 */
export function domainsOf(series, { xDomain, yDomain, yScale }) {
  const allX = series.flatMap((s) => Array.from(s.x));
  const allY = series.flatMap((s) => Array.from(s.y)).filter(Number.isFinite);
  const positiveY = allY.filter((v) => v > 0);
  const logLow = positiveY.length ? Math.floor(Math.log10(Math.min(...positiveY))) : 0;
  const logHigh = positiveY.length ? Math.max(logLow + 1, Math.ceil(Math.log10(Math.max(...positiveY)))) : 1;
  return [
    xDomain ?? [Math.min(...allX), Math.max(...allX)],
    yDomain ?? (yScale === 'log10' ? [10 ** logLow, 10 ** logHigh] : [0, Math.max(...allY) || 1]),
  ];
}

/**
 * The axes, their ticks and the horizontal grid lines, in `axes`. Its elements are kept from one
 * drawing to the next (in axes.parts): new ticks move the ones there, and only a change in their
 * number makes or removes any.
 */
export function drawAxes(axes, { xTicks, yTicks, x, y, formatX, formatY }, { margin, plotWidth, plotHeight, tick }) {
  const parts = (axes.parts ??= { frame: [], xMarks: [], xLabels: [], yGrid: [], yLabels: [] });
  const bottom = margin.top + plotHeight;
  const [xAxis, yAxis] = keep(parts.frame, 2, axes, 'line');
  setAttributes(xAxis, { x1: margin.left, x2: margin.left + plotWidth, y1: bottom, y2: bottom, class: 'plot-axis' });
  setAttributes(yAxis, { x1: margin.left, x2: margin.left, y1: margin.top, y2: bottom, class: 'plot-axis' });
  keep(parts.xMarks, xTicks.length, axes, 'line').forEach((line, i) => {
    const px = x(xTicks[i]);
    setAttributes(line, { x1: px, x2: px, y1: bottom, y2: bottom + 5, class: 'plot-axis' });
  });
  keep(parts.xLabels, xTicks.length, axes, 'text').forEach((text, i) => {
    setAttributes(text, { x: x(xTicks[i]), y: Math.round(bottom + 6 + tick * 1.1), 'text-anchor': 'middle', class: 'plot-tick' });
    setText(text, formatX(xTicks[i]));
  });
  keep(parts.yGrid, yTicks.length, axes, 'line').forEach((line, i) => {
    const py = y(yTicks[i]);
    setAttributes(line, { x1: margin.left, x2: margin.left + plotWidth, y1: py, y2: py, class: 'plot-grid' });
  });
  keep(parts.yLabels, yTicks.length, axes, 'text').forEach((text, i) => {
    setAttributes(text, { x: margin.left - 7, y: y(yTicks[i]), 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'plot-tick' });
    setText(text, formatY(yTicks[i]));
  });
}

/**
 * Keeps `count` elements of one kind in `list` (the series' own array of them), making the
 * missing ones in `group` and removing the extra: a redraw with as many points as the last one
 * creates no element, it only sets attributes.
 */
function keep(list, count, group, tag) {
  while (list.length < count) list.push(svgElement(tag, {}, group));
  while (list.length > count) list.pop().remove();
  return list;
}

/**
 * One series: its line (or its points alone, with line: false), a whisker per point with a
 * spread, and a dot per point with its label if it has one, in the series' own group `slot`
 * (made once by the plot, updated in place on every redraw). Returns the line's path.
 */
export function drawSeries(slot, s, index, { x, y, xScale, yScale, tick }) {
  const parts = (slot.parts ??= { path: svgElement('path', {}, slot), spreads: [], dots: [], labels: [] });
  const points = Array.from(s.x, (xv, i) => [xv, s.y[i]])
    .filter(([xv, yv]) => Number.isFinite(yv) && (yScale !== 'log10' || yv > 0) && (xScale === 'linear' || xv > 0));
  const d = points.map(([xv, yv], i) => `${i ? 'L' : 'M'}${x(xv).toFixed(2)},${y(yv).toFixed(2)}`).join('');
  const joined = s.line !== false;
  setAttributes(parts.path, { d: joined ? d : '', class: `plot-line plot-series-${index}` });
  // A spread per point (s.low, s.high: e.g. the fastest and slowest of repeated timings), drawn
  // as a vertical whisker through the point with a short cap at each end.
  const whiskers = [];
  if (s.low && s.high) {
    Array.from(s.x).forEach((xv, i) => {
      const [low, high] = [s.low[i], s.high[i]];
      if (!(Number.isFinite(low) && Number.isFinite(high)) || (yScale === 'log10' && !(low > 0)) || (xScale !== 'linear' && !(xv > 0))) return;
      const px = x(xv);
      whiskers.push([px, px, y(low), y(high)], [px - 3, px + 3, y(low), y(low)], [px - 3, px + 3, y(high), y(high)]);
    });
  }
  keep(parts.spreads, whiskers.length, slot, 'line').forEach((line, k) => {
    const [x1, x2, y1, y2] = whiskers[k];
    setAttributes(line, { x1: x1.toFixed(2), x2: x2.toFixed(2), y1: y1.toFixed(2), y2: y2.toFixed(2), class: `plot-spread plot-series-${index}` });
  });
  const labelOf = new Map(Array.from(s.x, (xv, i) => [xv, s.labels?.[i]]));
  // dots: 'last' marks only the newest point of a long joined curve (a curve redrawn many times
  // a second, as the learn figure's, would otherwise make a circle per point each time).
  const dotted = s.dots === 'last' && joined ? points.slice(-1) : points;
  const radius = joined ? 2.5 : 4;
  // dots: 'path' draws them all as one path of round-capped zero-length strokes: one attribute
  // to write when the curve moves, not two per dot (for a curve redrawn at every key press).
  const asPath = s.dots === 'path';
  keep(parts.dots, asPath ? 0 : dotted.length, slot, 'circle').forEach((dot, k) => {
    const [xv, yv] = dotted[k];
    setAttributes(dot, { cx: x(xv).toFixed(2), cy: y(yv).toFixed(2), r: radius, class: `plot-point plot-series-${index}` });
  });
  if (asPath) {
    parts.dotPath ??= svgElement('path', {}, slot);
    setAttributes(parts.dotPath, {
      d: dotted.map(([xv, yv]) => `M${x(xv).toFixed(2)},${y(yv).toFixed(2)}h0`).join(''),
      'stroke-width': 2 * radius,
      class: `plot-dots plot-series-${index}`,
    });
  } else if (parts.dotPath) {
    parts.dotPath.remove();
    parts.dotPath = null;
  }
  const labelled = dotted.filter(([xv]) => labelOf.get(xv));
  keep(parts.labels, labelled.length, slot, 'text').forEach((label, k) => {
    const [xv, yv] = labelled[k];
    setAttributes(label, { x: x(xv).toFixed(2), y: (y(yv) - 4 - tick * 0.5).toFixed(2), 'text-anchor': 'middle', class: 'plot-point-label' });
    setText(label, labelOf.get(xv));
  });
  return parts.path;
}

/**
 * The legend's item for one series: a swatch of its line (or its dot) and its name. Returns a
 * function that renames the item (a name that follows a setting, the swatch unchanged).
 */
export function drawLegendItem(legend, s, index) {
  const item = htmlElement('li', {}, null, legend);
  const swatch = svgElement('svg', { viewBox: '0 0 24 8', class: 'plot-swatch', 'aria-hidden': 'true' }, item);
  if (s.line !== false) svgElement('line', { x1: 1, x2: 23, y1: 4, y2: 4, class: `plot-line plot-series-${index}` }, swatch);
  else svgElement('circle', { cx: 12, cy: 4, r: 3.5, class: `plot-point plot-series-${index}` }, swatch);
  const name = document.createTextNode(s.name);
  item.append(name);
  return (text) => {
    if (name.data !== text) name.data = text;
  };
}

/**
 * Labelled dots drawn on top (e.g. where two curves cross), those inside the plot area. The
 * group keeps its dots and labels from one redraw to the next (in group.parts), so a slider
 * that moves a marker sets attributes and creates nothing.
 */
export function drawAnnotations(group, points, { x, y }, { margin, plotWidth, plotHeight, tick }) {
  const parts = (group.parts ??= { dots: [], labels: [] });
  const inside = points.map((point) => ({ point, px: x(point.x), py: y(point.y) })).filter(({ px, py }) => (
    px >= margin.left - 0.5 && px <= margin.left + plotWidth + 0.5 && py >= margin.top - 0.5 && py <= margin.top + plotHeight + 0.5));
  keep(parts.dots, inside.length, group, 'circle').forEach((dot, k) => {
    setAttributes(dot, { cx: inside[k].px.toFixed(2), cy: inside[k].py.toFixed(2), r: 4.5, class: 'plot-annotation' });
  });
  const labelled = inside.filter(({ point }) => point.label);
  keep(parts.labels, labelled.length, group, 'text').forEach((text, k) => {
    const { point, px, py } = labelled[k];
    // placement 'above-left' | 'below-right'; by default the side that keeps the text inside the plot.
    const placement = point.placement ?? (px < margin.left + plotWidth * 0.6 ? 'below-right' : 'above-left');
    const right = placement === 'below-right';
    setAttributes(text, {
      x: (px + (right ? 8 : -8)).toFixed(2), y: (py + (right ? 5 + tick : -4 - tick * 0.5)).toFixed(2),
      'text-anchor': right ? 'start' : 'end', class: 'plot-annotation-label',
    });
    setText(text, point.label);
  });
}
