// The heat map's frame: its margins, sized from the longest labels, and the labels themselves
// (axis titles, row labels, slanted column labels and the optional row-notes column). They
// are decoration for sighted readers, hidden from assistive technology: the grid's cells
// carry full names.

import { svgElement } from '../dom/elements.js';

export const CELL = 40; // side of one cell, in viewBox units
const FONT = 13; // label font size, in viewBox units
const CHAR = 7.5; // rough width of one label character at FONT, for sizing the margins
export const GAP = 8; // space between labels and cells

/** Where the cells start (left, top) and the drawing's size, for rows × cols cells. */
export function heatmapLayout({ rowLabels, colLabels, rowNotes }) {
  const rows = rowLabels.length;
  const cols = colLabels.length;
  const longestRow = Math.max(...rowLabels.map((s) => s.length));
  const longestCol = Math.max(...colLabels.map((s) => s.length));
  const left = longestRow * CHAR + GAP + FONT * 1.6; // labels plus the rotated row title
  // Column labels are drawn at 45°, so their height is about their length / √2.
  const top = (longestCol * CHAR) / Math.SQRT2 + GAP + FONT * 2.2;
  const notesRoom = rowNotes ? GAP + Math.max(rowNotes.chars ?? 5, rowNotes.title.length) * CHAR : 0;
  const width = left + cols * CELL + Math.max(CELL * 0.8, notesRoom); // room for the last slanted label
  const height = top + rows * CELL + 2;

  return { left, top, width, height };
}

/**
 * Draws the labels into `svg`; returns { rowLabelNodes, noteNodes } (the row labels, to mark the
 * current row, and the row notes' text nodes, empty until the map fills them).
 */
export function drawHeatmapLabels(svg, { rowLabels, colLabels, rowTitle, colTitle, rowNotes, left, top }) {
  const rows = rowLabels.length;
  const cols = colLabels.length;
  const labelLayer = svgElement('g', { 'aria-hidden': 'true', class: 'heatmap-labels' }, svg);
  svgElement('text', { x: left + (cols * CELL) / 2, y: FONT, class: 'heatmap-axis-title', 'text-anchor': 'middle' }, labelLayer)
    .textContent = `${colTitle} \u2192`;
  svgElement('text', {
    x: FONT, y: top + (rows * CELL) / 2, class: 'heatmap-axis-title', 'text-anchor': 'middle',
    transform: `rotate(-90 ${FONT} ${top + (rows * CELL) / 2})`,
  }, labelLayer).textContent = `\u2190 ${rowTitle}`; // turned by -90°, the arrow points down the rows
  const rowLabelNodes = rowLabels.map((text, i) => {
    const node = svgElement('text', {
      x: left - GAP, y: top + i * CELL + CELL / 2, 'text-anchor': 'end', 'dominant-baseline': 'central',
      class: 'heatmap-row-label',
    }, labelLayer);
    node.textContent = text;
    return node;
  });
  colLabels.forEach((text, j) => {
    const x = left + j * CELL + CELL / 2;
    const y = top - GAP;
    svgElement('text', { x, y, transform: `rotate(-45 ${x} ${y})`, class: 'heatmap-col-label' }, labelLayer)
      .textContent = text;
  });
  // Row notes, when asked for: plain text right of each row, under a title of their own.
  const noteNodes = rowNotes ? rowLabels.map((_, i) => svgElement('text', {
    x: left + cols * CELL + GAP, y: top + i * CELL + CELL / 2, 'dominant-baseline': 'central', class: 'heatmap-row-note',
  }, labelLayer)) : [];
  if (rowNotes) {
    svgElement('text', { x: left + cols * CELL + GAP, y: top - GAP, class: 'heatmap-axis-title heatmap-notes-title' }, labelLayer)
      .textContent = rowNotes.title;
  }

  return { rowLabelNodes, noteNodes };
}
