// The heat map's frame: its layout in CSS pixels (cell size and margins, from the width the map
// is given and the size of its text) and the labels themselves (axis titles, row labels,
// slanted column labels and the optional row-notes column). The labels are decoration for
// sighted readers, hidden from assistive technology: the grid's cells carry full names.

import { svgElement } from '../../dom/elements.js';

// Until the page has measured them, text widths are estimated from character counts, as a
// share of the font size (a generous one: DejaVu Sans, Linux's usual system font, is wide).
const CHAR_EM = 0.62;
const DIGIT_EM = 0.64;
const MAX_CELL_REM = 2.75; // cells grow no larger than 44 px at 16 px text
export const CELL_PADDING_EM = 0.3; // room left around a printed value inside its cell, both sides together

/**
 * Where the cells start (left, top), their size and the drawing's size, in px, for rows × cols
 * cells drawn in `width` px. `text` holds the text sizes and widths in px: { label, value,
 * rem, rowLabel, colLabels (one width each), note, valueChars, digit }. Cells shrink to fit the width, but
 * never below the size that holds a printed value; a map that still does not fit scrolls.
 */
export function heatmapLayout({ rows, cols, hasNotes, width, text }) {
  const { label, value, rem } = text;
  const gap = Math.max(5, 0.5 * label);
  const left = label * 1.4 + text.rowLabel + gap; // the rotated row title, the labels, a gap
  // Column labels are drawn at 45°: each reaches right of its cell's middle by its slant.
  const slants = text.colLabels.map((w) => w / Math.SQRT2);
  const top = label * 2.3 + Math.max(0, ...slants) + gap;
  const minCell = Math.ceil(text.valueChars * text.digit + CELL_PADDING_EM * value);
  const maxCell = Math.max(minCell, MAX_CELL_REM * rem);
  const notesRoom = hasNotes ? gap + text.note : 0;
  // Room right of the cells for the notes, or for the slanted labels that reach past them.
  const rightFor = (cell) => Math.ceil(Math.max(
    notesRoom, 4, ...slants.map((s, j) => s + 0.4 * label - (cols - j - 0.5) * cell),
  ));
  let cell = maxCell;
  for (let pass = 0; pass < 3; pass += 1) {
    cell = Math.floor(Math.min(maxCell, Math.max(minCell, (width - left - rightFor(cell)) / cols)));
  }
  return {
    left, top, cell, gap, label,
    width: Math.ceil(left + cols * cell + rightFor(cell)),
    height: Math.ceil(top + rows * cell + 2),
  };
}

/** Text sizes and widths estimated from character counts, before anything is measured. */
export function estimateText({ rowLabels, colLabels, rowNotes, rem, valueChars }) {
  const label = (13 / 16) * rem;
  const value = (12 / 16) * rem;
  const longest = (labels) => Math.max(0, ...labels.map((s) => s.length));
  return {
    label, value, rem, valueChars,
    rowLabel: longest(rowLabels) * CHAR_EM * label,
    colLabels: colLabels.map((s) => s.length * CHAR_EM * label),
    note: rowNotes ? Math.max(rowNotes.chars ?? 5, rowNotes.title.length) * CHAR_EM * label : 0,
    digit: DIGIT_EM * value,
  };
}

/**
 * Creates the label texts in `svg` (unplaced: placeHeatmapLabels puts them); returns the nodes,
 * { title, rowTitle, rowLabelNodes, colLabelNodes, noteNodes, notesTitle }.
 */
export function drawHeatmapLabels(svg, { rowLabels, colLabels, rowTitle, colTitle, rowNotes }) {
  const labelLayer = svgElement('g', { 'aria-hidden': 'true', class: 'heatmap-labels' }, svg);
  const text = (attributes, content) => {
    const node = svgElement('text', attributes, labelLayer);
    if (content !== undefined) node.textContent = content;
    return node;
  };
  const nodes = {
    title: text({ class: 'heatmap-axis-title', 'text-anchor': 'middle' }, `${colTitle} \u2192`),
    // turned by -90°, the arrow points down the rows
    rowTitle: text({ class: 'heatmap-axis-title', 'text-anchor': 'middle' }, `\u2190 ${rowTitle}`),
    rowLabelNodes: rowLabels.map((s) => text({ 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'heatmap-row-label' }, s)),
    colLabelNodes: colLabels.map((s) => text({ class: 'heatmap-col-label' }, s)),
    // Row notes, when asked for: plain text right of each row, under a title of their own.
    noteNodes: rowNotes ? rowLabels.map(() => text({ 'dominant-baseline': 'central', class: 'heatmap-row-note' })) : [],
    notesTitle: rowNotes ? text({ class: 'heatmap-axis-title heatmap-notes-title' }, rowNotes.title) : null,
  };
  return nodes;
}

/** Measures the drawn labels (reads layout: call it before writing anything). */
export function measureHeatmapText(nodes, valueNode, estimate) {
  const widest = (list) => Math.max(0, ...list.map((node) => node.getComputedTextLength()));
  const label = parseFloat(getComputedStyle(nodes.rowLabelNodes[0] ?? nodes.title).fontSize) || estimate.label;
  const value = parseFloat(getComputedStyle(valueNode).fontSize) || estimate.value;
  return {
    ...estimate,
    label, value,
    rowLabel: widest(nodes.rowLabelNodes),
    colLabels: nodes.colLabelNodes.map((node) => node.getComputedTextLength()),
    // Row notes change; their width is kept as estimated at this font size.
    note: estimate.note * (label / estimate.label),
    digit: DIGIT_EM * value,
  };
}

/** Puts the labels where `layout` says (writes only). */
export function placeHeatmapLabels(nodes, { rows, cols }, { left, top, cell, gap, label }) {
  const place = (node, attributes) => {
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  };
  const middleY = top + (rows * cell) / 2;
  place(nodes.title, { x: left + (cols * cell) / 2, y: label });
  place(nodes.rowTitle, { x: label, y: middleY, transform: `rotate(-90 ${label} ${middleY})` });
  nodes.rowLabelNodes.forEach((node, i) => place(node, { x: left - gap, y: top + i * cell + cell / 2 }));
  nodes.colLabelNodes.forEach((node, j) => {
    const x = left + j * cell + cell / 2;
    const y = top - gap;
    place(node, { x, y, transform: `rotate(-45 ${x} ${y})` });
  });
  nodes.noteNodes.forEach((node, i) => place(node, { x: left + cols * cell + gap, y: top + i * cell + cell / 2 }));
  if (nodes.notesTitle) place(nodes.notesTitle, { x: left + cols * cell + gap, y: top - gap });
}
