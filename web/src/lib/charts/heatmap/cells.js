// The heat map's cells, painted as SVG rects: one square per entry, in one group per row.
// This is the painter the map composes (see ../heatmap.js); another painter (a canvas, for
// large maps) can stand in for it behind the same interface:
//   rows[i]          the element that stands for row i (role="row", named by the grid)
//   cells[i*cols+j]  the focusable element that stands for cell (i, j) (role="gridcell"),
//                    carrying data-row and data-col, under the pointer where the cell is drawn
//   place(layout)    puts every cell where the layout says (writes only)
//   paint(index, fill)  colours one cell ('#rrggbb'), or draws it empty (null)
// The painter knows nothing of names, focus or values: the grid and the value layer do.

import { svgElement } from '../../dom/elements.js';

export const CELL_CLASS = 'heatmap-cell';

/** Where cell (i, j) starts, in px. */
export const cellX = (layout, j) => layout.left + j * layout.cell;
export const cellY = (layout, i) => layout.top + i * layout.cell;

export function createSvgCells(svg, { rows, cols }) {
  const rowElements = [];
  const cells = [];
  const painted = new Array(rows * cols).fill(undefined); // each cell's fill, so paint() writes only changes
  for (let i = 0; i < rows; i += 1) {
    const row = svgElement('g', { role: 'row', 'aria-rowindex': i + 1 }, svg);
    rowElements.push(row);
    for (let j = 0; j < cols; j += 1) {
      const cell = svgElement('rect', {
        role: 'gridcell', 'aria-colindex': j + 1, tabindex: -1, class: CELL_CLASS, 'data-row': i, 'data-col': j,
      }, row);
      svgElement('title', {}, cell); // the cell's name, as a tooltip
      cells.push(cell);
    }
  }

  return {
    rows: rowElements,
    cells,

    place(layout) {
      const { cell: size } = layout;
      cells.forEach((cell, index) => {
        const i = Math.floor(index / cols);
        const j = index % cols;
        cell.setAttribute('x', cellX(layout, j));
        cell.setAttribute('y', cellY(layout, i));
        cell.setAttribute('width', size);
        cell.setAttribute('height', size);
      });
    },

    paint(index, fill) {
      const was = painted[index];
      if (was === fill) return;
      const cell = cells[index];
      if (fill === null) cell.removeAttribute('fill');
      else cell.setAttribute('fill', fill);
      if ((was === null) !== (fill === null)) cell.classList.toggle('heatmap-cell-empty', fill === null);
      painted[index] = fill;
    },
  };
}
