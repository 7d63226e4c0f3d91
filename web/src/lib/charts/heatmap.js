// A heat map of a matrix: one square per entry, coloured on a colour-blind-safe
// sequential palette (viridis), with row and column labels, an optional highlighted row,
// keyboard navigation (one tab stop, arrow keys move between cells) and a visible readout
// of the cell under the pointer or focus. The colours and numbers are painted on a canvas;
// the labels, outlines and the grid's cells are SVG above it. update() repaints the canvas
// and renames the cells whose value changed, so dragging a slider never rebuilds the DOM,
// repaints no SVG and keeps keyboard focus. The map is drawn in CSS pixels for the width it
// is given (see fit.js): its text keeps its size on a phone and grows with the reader's text
// size; a map whose printed values do not fit the width scrolls sideways.
//
// It is composed of parts in ./heatmap/: the canvas painter of colours and numbers (canvas.js;
// the numbers can be switched off), the cells as grid elements (cells.js), the labels and
// layout (labels.js), the marks over the cells (marks.js), the grid for the keyboard and
// screen readers (grid.js), the colour legend (legend.js) and the same drawing as SVG shapes
// for Export and print (svg-cells.js).

import { scaleLinear } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import { registerExportable } from '../export/registry.js';
import { formatFixed, formatWeightExact } from '../format/index.js';
import { htmlElement, svgElement, setText } from '../dom/elements.js';
import { ownedScrollRegion, renameScrollRegion } from '../dom/scroll-region.js';
import { DEFAULT_REM, fitChart } from './fit.js';
import { createCanvasPainter, shownValue } from './heatmap/canvas.js';
import { createGridCells } from './heatmap/cells.js';
import { createGrid } from './heatmap/grid.js';
import {
  drawHeatmapLabels, estimateText, heatmapLayout, measureHeatmapText, placeHeatmapLabels,
} from './heatmap/labels.js';
import { drawLegend } from './heatmap/legend.js';
import { createMarks } from './heatmap/marks.js';
import { addSvgCells, printWithSvgCells } from './heatmap/svg-cells.js';

/** Reads entry (i, j) from a { rows, cols, data } matrix or nested arrays; null/NaN = empty. */
function entry(matrix, i, j) {
  const value = Array.isArray(matrix) ? matrix[i][j] : matrix.data[i * matrix.cols + j];
  return value === null || value === undefined || Number.isNaN(value) ? null : value;
}

function shapeOf(matrix) {
  return Array.isArray(matrix) ? { rows: matrix.length, cols: matrix[0]?.length ?? 0 } : matrix;
}

/** The values a map shows, as nested arrays (null = an empty cell), with its labels; null before any. */
function shownMatrix(matrix, { rowLabels, colLabels, rowTitle, colTitle }) {
  if (!matrix) return null;
  return {
    rowLabels: [...rowLabels], colLabels: [...colLabels], rowTitle, colTitle,
    values: rowLabels.map((_, i) => colLabels.map((__, j) => entry(matrix, i, j))),
  };
}

const SAME_LAYOUT = ['left', 'top', 'cell', 'width', 'height', 'gap', 'label'];

/**
 * Sizes the map for the width it is given, now and whenever the width or the text size
 * changes (fit.js). Returns relayout(), which sizes it again for longer printed values.
 */
function fitHeatmap({ container, frame, svg, labelNodes, cells, painter, marks, setScrolls }, { rows, cols, rowLabels, colLabels, rowNotes, valueChars }) {
  let text = null;
  let layout = null;
  let fittedWidth = 0;
  const estimate = (rem) => estimateText({ rowLabels, colLabels, rowNotes, rem, valueChars: valueChars() });

  function applyLayout(width) {
    const next = heatmapLayout({ rows, cols, hasNotes: Boolean(rowNotes), width, text: { ...text, valueChars: valueChars() } });
    fittedWidth = width;
    // Wider than its frame, the map scrolls in it, and is then a named tab stop.
    const scrolls = next.width > width;
    if (frame.classList.contains('heatmap-frame-scrolls') !== scrolls) frame.classList.toggle('heatmap-frame-scrolls', scrolls);
    setScrolls(scrolls);
    if (layout && SAME_LAYOUT.every((k) => next[k] === layout[k])) return;
    layout = next;
    svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    svg.setAttribute('width', layout.width);
    svg.setAttribute('height', layout.height);
    placeHeatmapLabels(labelNodes, { rows, cols }, layout);
    cells.place(layout);
    painter.place(layout);
    marks.place(layout, cols);
  }

  const start = fitChart(frame, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    memo: { container, signature: `heatmap ${rows}×${cols} ${rowLabels} ${colLabels} ${rowNotes?.title}` },
    measure: ({ width, rem }) => {
      const measured = measureHeatmapText(labelNodes, painter.sample, estimate(rem));
      painter.measureFont();
      const digit = painter.measureDigit();
      return { width, text: digit ? { ...measured, digit } : measured };
    },
    apply: ({ width, text: measured }) => {
      text = measured;
      layout = null; // the text may have changed size: place everything again
      applyLayout(width);
    },
  });
  text = start.measured?.text ?? estimate(start.rem);
  applyLayout(start.width);
  return () => applyLayout(fittedWidth);
}

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string[]} options.rowLabels
 * @param {string[]} options.colLabels
 * @param {string[]} [options.rowNames]     spoken names of rows (default: rowLabels), to tell
 * @param {string[]} [options.colNames]     apart repeated labels such as two "the"s
 * @param {string} options.label            accessible name of the whole grid
 * @param {string} [options.rowTitle]       axis title for rows, e.g. "query"
 * @param {string} [options.colTitle]       axis title for columns, e.g. "key"
 * @param {[number, number]} [options.domain]  value range mapped onto the palette
 * @param {(v: number) => string} [options.formatCell]   text printed inside a cell
 * @param {(v: number) => string} [options.formatExact]  text in names, tooltips, readout
 * @param {boolean} [options.showValues]  print each value in its cell (default true; see showValues())
 * @param {(row: number, col: number) => void} [options.onActivateCell]  click / Enter
 * @param {string} [options.pairJoiner]   text between the row and the column in a cell's name
 *                                        (default ", "; e.g. " \u2192 " for "query … → key …")
 * @param {string} [options.idleText]     readout text while no cell is pointed at or focused
 *                                        (default: an invitation to point at a cell; '' for none)
 * @param {{ title: string, name?: string, chars?: number }} [options.rowNotes]  a column of short
 *        texts right of the cells, one per row (e.g. each row's sum), filled by setRowNotes();
 *        `name` (default: title) joins each row's accessible name, `chars` is the widest text
 * @param {string} [options.emptyText]    what an empty (null) cell is called (default "masked (no weight)")
 * @param {string} [options.legend]       title of a colour legend under the map (e.g. "weight"):
 *        a bar of the palette from domain[0] to domain[1]; no legend when absent
 * @param {string} [options.exportName]   name in the figure's Export menu (default: label); every
 *        heat map registers itself there as a picture and as a matrix (see ../export/registry.js)
 * @param {number} [options.recall]       how many matrices' drawings to keep (default 0), for a map
 *        that is shown the same few matrix objects again (a figure that keeps its results): such a
 *        matrix is then put back as one bitmap copy instead of painted cell by cell
 */
export function createHeatmap(container, options) {
  const {
    rowLabels, colLabels, label, rowTitle = 'row', colTitle = 'column', domain = [0, 1],
    formatCell = (v) => formatFixed(v, 2), formatExact = formatWeightExact, onActivateCell = null,
    pairJoiner = ', ', idleText = 'Point at, tap or tab to a cell to read its exact value.',
    emptyText = 'masked (no weight)', showValues = true,
  } = options;
  const rowNames = options.rowNames ?? rowLabels;
  const colNames = options.colNames ?? colLabels;
  const rows = rowLabels.length;
  const cols = colLabels.length;
  const rowNotes = options.rowNotes ?? null;
  let current = null;
  let highlightedRow = null;
  let valueChars = 4; // the longest printed value the layout has room for ("0.95")
  const recall = options.recall ?? 0;
  const kept = new Map(); // matrix → its drawing (painter.snapshot()), the most recently shown last

  const wrapper = htmlElement('div', { class: 'heatmap' }, null, container);
  const frame = htmlElement('div', { class: 'heatmap-frame' }, null, wrapper);
  const svg = svgElement('svg', {
    role: 'grid', 'aria-label': label, 'aria-rowcount': rows, 'aria-colcount': cols, class: 'heatmap-svg',
  }, frame);
  // The map knows when it is wider than its frame (fitHeatmap): nothing needs to watch it.
  const setScrolls = ownedScrollRegion(frame, `${label}, scrolls sideways`);

  const labelNodes = drawHeatmapLabels(svg, { rowLabels, colLabels, rowTitle, colTitle, rowNotes });
  const cells = createGridCells(svg, { rows, cols });
  const painter = createCanvasPainter(frame, svg, { rows, cols, shown: showValues, onDrawn: cells.record });
  const marks = createMarks(svg);
  const relayout = fitHeatmap(
    { container, frame, svg, labelNodes, cells, painter, marks, setScrolls },
    { rows, cols, rowLabels, colLabels, rowNotes, valueChars: () => valueChars },
  );
  // The legend scrolls with its map (and stays the map's sibling, where readers of the DOM look).
  if (options.legend) drawLegend(frame, options.legend, domain);

  function describe(i, j) {
    const value = current ? entry(current, i, j) : null;
    const said = value === null ? emptyText : formatExact(value);
    return `${rowTitle} ${rowNames[i]}${pairJoiner}${colTitle} ${colNames[j]}: ${said}`;
  }
  const grid = createGrid({ wrapper, svg, painter: cells, marks }, { rows, cols, describe, idleText, onActivateCell });
  rowNames.forEach((name, i) => grid.nameRow(i, `${rowTitle} ${name}`));

  /**
   * Shows `matrix` from its kept drawing, if it has one that still fits, after keeping the
   * drawing being left (already painted, so copying it costs no painting). True when shown.
   */
  function restoreKept(matrix) {
    if (current && current !== matrix && !kept.has(current)) {
      const snapshot = painter.snapshot();
      if (snapshot) kept.set(current, snapshot);
      if (kept.size > recall) kept.delete(kept.keys().next().value);
    }
    const snapshot = kept.get(matrix);
    if (!snapshot) return false;
    kept.delete(matrix); // shown again: now the most recent
    if (!painter.restore(snapshot)) return false; // drawn for an older size or font: forgotten
    kept.set(matrix, snapshot);
    current = matrix;
    grid.renameCells();
    grid.showReadout();
    return true;
  }

  // Value → position on the palette, 0…1; values outside the domain take its end colours.
  const toUnit = scaleLinear().domain(domain).clamp(true);

  const heatmap = {
    element: wrapper,

    /** Recolours every cell from a matrix of the same shape; null or NaN entries are drawn empty. */
    update(matrix) {
      const shape = shapeOf(matrix);
      if (shape.rows !== rows || shape.cols !== cols) {
        throw new Error(`heatmap: expected a ${rows}×${cols} matrix, got ${shape.rows}×${shape.cols}`);
      }
      if (recall > 0 && restoreKept(matrix)) return;
      current = matrix;
      let longest = valueChars;
      for (let i = 0; i < rows; i += 1) {
        for (let j = 0; j < cols; j += 1) {
          const index = i * cols + j;
          const value = entry(matrix, i, j);
          const printed = value === null ? '' : formatCell(value);
          const fill = value === null ? null : interpolateViridis(toUnit(shownValue(printed, value)));
          painter.set(index, fill, printed, value);
          longest = Math.max(longest, printed.length);
        }
      }
      grid.renameCells();
      // A value longer than the cells were sized for: size them again (no layout is read;
      // placing them draws), else draw.
      if (longest > valueChars) {
        valueChars = longest;
        relayout();
      } else {
        painter.draw();
      }
      grid.showReadout();
    },

    /** Prints the values in their cells, or not (the cells' names and the readout keep them). */
    showValues(on) {
      painter.show(on);
    },

    /** Fills the row-notes column (needs options.rowNotes); each text also joins its row's name. */
    setRowNotes(texts) {
      if (!rowNotes) throw new Error('heatmap: setRowNotes needs the rowNotes option');
      if (texts.length !== rows) throw new Error(`heatmap: expected ${rows} row notes, got ${texts.length}`);
      texts.forEach((text, i) => {
        setText(labelNodes.noteNodes[i], text);
        grid.nameRow(i, `${rowTitle} ${rowNames[i]}, ${rowNotes.name ?? rowNotes.title} ${text}`);
      });
    },

    /**
     * Renames the whole grid (its accessible name, and its name in the Export menu unless
     * options.exportName fixed one): a figure that shows another matrix of the same shape in
     * the same map, such as another head, relabels it instead of drawing a new one.
     */
    setLabel(text) {
      svg.setAttribute('aria-label', text);
      renameScrollRegion(frame, `${text}, scrolls sideways`);
      if (options.exportName === undefined) exported.name = text;
    },

    /** Outlines one row (null for none) and marks it selected for assistive technology. */
    highlightRow(index) {
      if (index === highlightedRow) return; // a redraw at the same row changes nothing here
      if (highlightedRow !== null) labelNodes.rowLabelNodes[highlightedRow].classList.remove('heatmap-row-label-current');
      grid.selectRow(highlightedRow, index);
      highlightedRow = index;
      marks.rowAt(index);
      if (index !== null) labelNodes.rowLabelNodes[index].classList.add('heatmap-row-label-current');
    },
  };
  // Export and print get the colours and numbers as SVG shapes, for as long as they need them.
  const addShapes = () => addSvgCells(svg, { layout: painter.layout, cols, drawn: painter.drawn });
  const exported = {
    kind: 'heatmap', name: options.exportName ?? label, svg, addShapes,
    getMatrix: () => shownMatrix(current, { rowLabels, colLabels, rowTitle, colTitle }),
  };
  registerExportable(wrapper, exported);
  printWithSvgCells(wrapper, addShapes);
  return heatmap;
}
