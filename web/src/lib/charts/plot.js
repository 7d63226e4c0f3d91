// A small SVG line plot: several series against a shared x axis (linear or log2), axis
// labels, a legend, and one optional vertical marker. Series colours and dash patterns
// come from CSS classes (plot-series-0, -1, …), so they follow the light/dark theme and
// stay distinguishable without colour.

import { registerExportable } from '../export/registry.js';
import { formatPowerOfTen, formatSignificant } from '../format/index.js';
import { htmlElement, setAttributes, setText, svgElement } from '../dom/elements.js';
import { DEFAULT_REM, fitChart } from './fit.js';
import { drawWhenOnScreen } from './on-screen.js';
import { domainsOf, drawAnnotations, drawAxes, drawLegendItem, drawSeries } from './plot-parts.js';
import { SCALES } from './plot-scales.js';

// The plot is drawn in CSS px for the width it gets (see fit.js), no wider than MAX_WIDTH_REM,
// and its margins are sized around its text, so tick labels keep their size on a phone and
// grow with the reader's text size.
const MAX_WIDTH_REM = 34;
const ASPECT = 280 / 480; // height : width on a wide screen
const MIN_HEIGHT_REM = 13; // a phone's plot keeps room for its curves
const CHAR_EM = 0.62; // a generous character width, as a share of the font size

/** The drawing's size and margins (px) for `width` px and text sizes { tick, title, rem } (px). */
function plotFrame(width, { tick, title, rem }, yTickChars, xTickChars, minLeft = 0) {
  const w = Math.min(width, MAX_WIDTH_REM * rem);
  return {
    width: w,
    height: Math.round(Math.max(w * ASPECT, MIN_HEIGHT_REM * rem)),
    margin: {
      top: Math.ceil(Math.max(18, tick * 1.7)),
      right: Math.ceil(Math.max(18, (xTickChars * CHAR_EM * tick) / 2 + 4)),
      bottom: Math.ceil(tick * 1.6 + 5 + title * 1.7 + 4),
      left: Math.ceil(Math.max(minLeft, title * 1.5 + 10 + yTickChars * CHAR_EM * tick)),
    },
  };
}

/**
 * Registers a plot for the Export menu, as a picture and as its data series. The legend is
 * HTML beside the SVG: the picture file gets it as drawn, with each series' stroke as the page
 * shows it. drawn() gives the last series drawn and their paths ({ series: null } before any);
 * addShapes() draws a drawing that waits for the plot to come on screen (waitOffScreen).
 */
function registerPlot(wrapper, { name, svg, legend, xLabel, yLabel, drawn, addShapes }) {
  registerExportable(wrapper, {
    kind: 'plot', name, svg, addShapes,
    getSeries: () => {
      const { series } = drawn();
      return series ? { xLabel, yLabel, series } : null;
    },
    getLegend: () => {
      const { series, paths } = drawn();
      if (!series) return null;
      const font = getComputedStyle(legend);
      return {
        fontFamily: font.fontFamily,
        color: font.color,
        items: series.map((s, index) => {
          const style = paths[index] ? getComputedStyle(paths[index]) : null;
          return { name: s.name, stroke: style?.stroke, strokeWidth: style?.strokeWidth, strokeDasharray: style?.strokeDasharray };
        }),
      };
    },
  });
}

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
 * @param {number} [options.marginLeft]  least room for the y tick labels, px (the plot sizes it from its
 *   ticks' text anyway, e.g. wider ones with units ("100 µs"))
 * @param {string} [options.exportName]  name in the figure's Export menu (default: label); every
 *   plot registers itself there as a picture and as its data series (see ../export/registry.js)
 * @param {boolean} [options.waitOffScreen]  for a plot redrawn at every key press: off screen, it
 *   draws only when it comes on screen, is exported or printed (on-screen.js); its data for
 *   Export and its legend's names follow every update at once
 */
export function createPlot(container, options) {
  const {
    label, xLabel, yLabel, xScale = 'linear', yScale = 'linear', xDomain = null, yDomain = null,
    formatX = (v) => formatSignificant(v, 4),
    formatY = yScale === 'log10' ? formatPowerOfTen : (v) => formatSignificant(v, 3),
  } = options;
  if (!SCALES[xScale] || !SCALES[yScale] || yScale === 'log2') throw new Error(`plot: unknown scale ${xScale}/${yScale}`);
  const parts = createPlotElements(container, { label, xLabel, yLabel });
  const { wrapper, svg, axes, lines, pointGroup, legend } = parts;
  const frame = createPlotFrame(parts, options.marginLeft);
  const marker = createPlotMarker(parts, frame, formatX);

  let drawnSeries = null; // the last series drawn, for the Export menu
  let drawnPaths = [];
  let drawnAxesKey = null;
  let drawnLegendKey = null;
  let renameLegend = []; // per series, writes its name into its legend item
  const slots = []; // one <g> per series, its elements updated in place
  const screen = options.waitOffScreen ? drawWhenOnScreen(wrapper) : null;
  registerPlot(wrapper, {
    name: options.exportName ?? label, svg, legend, xLabel, yLabel,
    drawn: () => ({ series: drawnSeries, paths: drawnPaths }),
    addShapes: screen && (() => {
      screen.flush();
      return null;
    }),
  });

  let lastDrawing = null; // the last update()'s argument, drawn again when the size changes
  const start = fitChart(wrapper, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    measure: ({ width, rem }) => ({
      width,
      text: {
        rem,
        tick: parseFloat(getComputedStyle(parts.markerText).fontSize) || (11 / 16) * rem,
        title: parseFloat(getComputedStyle(parts.xTitle).fontSize) || (12.5 / 16) * rem,
      },
    }),
    apply: ({ width, text }) => {
      frame.setRoom(width, text);
      // The drawing's size is the page's layout, never kept waiting: a plot drawn for a wider
      // screen would widen the page. What it draws inside may wait (waitOffScreen).
      frame.fit(...fittedTicks);
      if (!lastDrawing) return;
      if (screen) screen.draw(() => draw(lastDrawing));
      else draw(lastDrawing);
    },
  });
  let fittedTicks = [['0.00'], ['0']]; // the tick texts the frame was last fitted for: y, x
  frame.setRoom(start.width, { rem: start.rem, tick: (11 / 16) * start.rem, title: (12.5 / 16) * start.rem });
  frame.fit(...fittedTicks);

  /** The data for Export, and the legend: read as text, never kept waiting (waitOffScreen). */
  function describe(series) {
    drawnSeries = series.map((s) => ({ name: s.name, x: Array.from(s.x), y: Array.from(s.y) }));
    // The legend's items are made again only when the series' kinds change; a new name (one
    // that follows a setting) is written into the item there.
    const legendKey = JSON.stringify(series.map((s) => s.line !== false));
    if (legendKey !== drawnLegendKey) {
      legend.replaceChildren();
      renameLegend = series.map((s, index) => drawLegendItem(legend, s, index));
      drawnLegendKey = legendKey;
    }
    series.forEach((s, index) => renameLegend[index](s.name));
  }

  function draw({ series, marker: markAt = null, points = [], yDomain: domainNow = yDomain }) {
    const [[xLow, xHigh], [yLow, yHigh]] = domainsOf(series, { xDomain, yDomain: domainNow, yScale });
    const xTicks = SCALES[xScale].ticks(xLow, xHigh);
    const yTicks = SCALES[yScale].ticks(yLow, yHigh);
    fittedTicks = [yTicks.map(formatY), xTicks.map(formatX)];
    frame.fit(...fittedTicks);
    const { margin, plotWidth, plotHeight, tick } = frame.now();
    const x = SCALES[xScale].scale().domain([xLow, xHigh]).range([margin.left, margin.left + plotWidth]);
    const y = SCALES[yScale].scale().domain([yLow, yHigh]).range([margin.top + plotHeight, margin.top]);
    marker.setScale(x, [xLow, xHigh]);

    // Redrawn many times a second (a curve that grows while a model trains), the plot changes
    // only what moved: the axes when their ticks or the frame change, the legend when the
    // series do, and each series' elements in place (drawSeries).
    const axesKey = JSON.stringify([xTicks, yTicks, xLow, xHigh, yLow, yHigh, frame.now()]);
    if (axesKey !== drawnAxesKey) {
      drawAxes(axes, { xTicks, yTicks, x, y, formatX, formatY }, frame.now());
      drawnAxesKey = axesKey;
    }
    while (slots.length > series.length) slots.pop().remove();
    while (slots.length < series.length) slots.push(svgElement('g', { class: 'plot-series' }, lines));
    drawnPaths = series.map((s, index) => drawSeries(slots[index], s, index, { x, y, xScale, yScale, tick }));
    drawAnnotations(pointGroup, points, { x, y, tick }, frame.now());
    marker.place(markAt);
  }

  return {
    element: wrapper,

    /**
     * Redraws the plot. series: [{ name, x: number[], y: number[], line?: false, labels?: string[] }]
     * (line: false draws the measured points alone, with nothing interpolated between them;
     * labels: a text printed above each point, e.g. its value; dots: 'last' marks only the
     * newest point, 'path' draws every dot as one path, cheaper to redraw); marker: { x, label } or null;
     * points: labelled dots drawn on top, e.g. where two curves cross: [{ x, y, label, placement }]
     * (placement 'below-right' or 'above-left' of the dot);
     * yDomain: overrides the plot's y range for this drawing (e.g. when the data's scale changes).
     */
    update(drawing) {
      lastDrawing = drawing;
      describe(drawing.series);
      if (screen) screen.draw(() => draw(lastDrawing));
      else draw(drawing);
    },

    /** Moves only the marker, leaving the series as they are. */
    setMarker(markAt) {
      if (lastDrawing) lastDrawing = { ...lastDrawing, marker: markAt };
      marker.place(markAt);
    },
  };
}

/** The plot's elements: the SVG with its groups and axis titles, and the HTML legend beside it. */
function createPlotElements(container, { label, xLabel, yLabel }) {
  const wrapper = htmlElement('div', { class: 'plot' }, null, container);
  const svg = svgElement('svg', { role: 'img', 'aria-label': label, class: 'plot-svg' }, wrapper);
  const axes = svgElement('g', { class: 'plot-axes', 'aria-hidden': 'true' }, svg);
  const lines = svgElement('g', { class: 'plot-lines', 'aria-hidden': 'true' }, svg);
  const markerGroup = svgElement('g', { class: 'plot-marker', 'aria-hidden': 'true', visibility: 'hidden' }, svg);
  const markerLine = svgElement('line', {}, markerGroup);
  const markerText = svgElement('text', { 'text-anchor': 'middle', class: 'plot-marker-label' }, markerGroup);
  const pointGroup = svgElement('g', { class: 'plot-points', 'aria-hidden': 'true' }, svg);
  const legend = htmlElement('ul', { class: 'plot-legend' }, null, wrapper);
  const xTitle = svgElement('text', { 'text-anchor': 'middle', class: 'plot-axis-title' }, svg);
  setText(xTitle, xLabel);
  const yTitle = svgElement('text', { 'text-anchor': 'middle', class: 'plot-axis-title' }, svg);
  setText(yTitle, yLabel);
  return { wrapper, svg, axes, lines, markerGroup, markerLine, markerText, pointGroup, legend, xTitle, yTitle };
}

/**
 * The drawing's size and margins for the room it has (width and text sizes, from fitChart) and
 * the ticks it prints; fit() sizes the SVG and places the axis titles and the marker's line.
 */
function createPlotFrame({ svg, xTitle, yTitle, markerLine, markerText }, marginLeft) {
  let width = 480;
  let height = 280;
  let margin = { top: 18, right: 18, bottom: 46, left: 56 };
  let plotWidth = 0;
  let plotHeight = 0;
  let textSize = { tick: 11, title: 12.5, rem: DEFAULT_REM };
  let available = Infinity;

  return {
    setRoom(room, text) {
      available = room;
      textSize = text;
    },
    /** Sizes the drawing for the ticks it will print (writes only). */
    fit(yTickTexts, xTickTexts) {
      const chars = (texts) => Math.max(1, ...texts.map((t) => t.length));
      ({ width, height, margin } = plotFrame(available, textSize, chars(yTickTexts), chars(xTickTexts.slice(-1)), marginLeft));
      plotWidth = width - margin.left - margin.right;
      plotHeight = height - margin.top - margin.bottom;
      setAttributes(svg, { viewBox: `0 0 ${width} ${height}`, width, height });
      setAttributes(xTitle, { x: margin.left + plotWidth / 2, y: height - Math.ceil(textSize.title * 0.45) });
      const titleX = Math.ceil(textSize.title * 1.05);
      const titleY = margin.top + plotHeight / 2;
      setAttributes(yTitle, { x: titleX, y: titleY, transform: `rotate(-90 ${titleX} ${titleY})` });
      setAttributes(markerLine, { y1: margin.top, y2: margin.top + plotHeight });
      setAttributes(markerText, { y: margin.top - 5 });
    },
    now: () => ({ width, margin, plotWidth, plotHeight, tick: textSize.tick }),
  };
}

/** The optional vertical marker: shown where its x falls inside the x axis, hidden otherwise. */
function createPlotMarker({ markerGroup, markerLine, markerText }, frame, formatX) {
  let x = null; // value → pixel, set by each drawing
  let xRange = null;
  return {
    setScale(scale, range) {
      x = scale;
      xRange = range;
    },
    place(marker) {
      if (!marker || !x || marker.x < xRange[0] || marker.x > xRange[1]) {
        setAttributes(markerGroup, { visibility: 'hidden' });
        return;
      }
      const { width, margin } = frame.now();
      const px = x(marker.x);
      setAttributes(markerLine, { x1: px, x2: px });
      setAttributes(markerText, { x: Math.min(width - margin.right - 20, Math.max(margin.left + 20, px)) });
      setText(markerText, marker.label ?? formatX(marker.x));
      setAttributes(markerGroup, { visibility: 'visible' });
    },
  };
}
