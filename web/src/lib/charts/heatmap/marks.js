// The outlines drawn over a heat map's cells, hidden from assistive technology (the grid says
// the same with aria-selected and focus): the highlighted row, the focused cell (two nested
// rings, dark and light, so it stands out on any palette colour) and the cell under the
// pointer (so the eye finds the cell the readout is talking about). Each mark remembers
// where it is and is placed again when the layout changes.

import { svgElement } from '../../dom/elements.js';
import { cellX, cellY } from './cells.js';

export function createMarks(svg) {
  const hidden = { visibility: 'hidden', 'aria-hidden': 'true' };
  const rowOutline = svgElement('rect', { class: 'heatmap-row-highlight', ...hidden }, svg);
  const focusRing = svgElement('g', { class: 'heatmap-focus-ring', ...hidden }, svg);
  const focusOuter = svgElement('rect', { x: 0, y: 0, class: 'heatmap-focus-outer' }, focusRing);
  const focusInner = svgElement('rect', { x: 2.5, y: 2.5, class: 'heatmap-focus-inner' }, focusRing);
  const hoverRing = svgElement('rect', { class: 'heatmap-hover-ring', ...hidden }, svg);
  let layout = null;
  let focus = null; // { row, col } or null, likewise hover; row: an index or null
  let hover = null;
  let row = null;

  const show = (node, on) => node.setAttribute('visibility', on ? 'visible' : 'hidden');

  /** Puts the marks on their cells (writes only). */
  function placeMarks() {
    if (!layout) return;
    if (focus) focusRing.setAttribute('transform', `translate(${cellX(layout, focus.col)} ${cellY(layout, focus.row)})`);
    if (hover) {
      hoverRing.setAttribute('x', cellX(layout, hover.col) + 1);
      hoverRing.setAttribute('y', cellY(layout, hover.row) + 1);
    }
    if (row !== null) rowOutline.setAttribute('y', cellY(layout, row));
  }

  return {
    place(next, cols) {
      layout = next;
      const { cell } = layout;
      rowOutline.setAttribute('x', layout.left - 1);
      rowOutline.setAttribute('width', cols * cell + 2);
      rowOutline.setAttribute('height', cell);
      focusOuter.setAttribute('width', cell);
      focusOuter.setAttribute('height', cell);
      focusInner.setAttribute('width', cell - 5);
      focusInner.setAttribute('height', cell - 5);
      hoverRing.setAttribute('width', cell - 2);
      hoverRing.setAttribute('height', cell - 2);
      placeMarks();
    },
    /** Rings the focused cell ({ row, col }), or hides the ring (null). */
    focusAt(at) {
      focus = at;
      placeMarks();
      show(focusRing, at !== null);
    },
    hoverAt(at) {
      hover = at;
      placeMarks();
      show(hoverRing, at !== null);
    },
    /** Outlines row `index`, or none (null). */
    rowAt(index) {
      row = index;
      placeMarks();
      show(rowOutline, index !== null);
    },
  };
}
