// The heat map's cells as elements: one transparent SVG rect per entry, in one group per row,
// for the grid (role="row" / role="gridcell", named by grid.js), the keyboard focus and the
// pointer. They are never painted: the colours and numbers are drawn on a canvas under them
// (canvas.js), so a new matrix rewrites no paint-bearing attribute here. Each cell carries
// what the canvas drew on it as a property, `cell.drawn` = { fill, ink, text }: what a reader
// sees, for tests and the browser's console. A property, not data-* attributes: a τ step
// changes most of 64 cells, and three attribute writes per cell are DOM mutations for nothing
// the page itself reads.
//   rows[i]          the element that stands for row i
//   cells[i*cols+j]  the focusable element that stands for cell (i, j), carrying data-row and
//                    data-col, under the pointer where the cell is drawn
//   place(layout)    puts every cell where the layout says (writes only)
//   record(index, { fill, ink, text })  what the canvas drew on cell `index` (cell.drawn)

import { svgElement } from '../../dom/elements.js';

export const CELL_CLASS = 'heatmap-cell';

/** Where cell (i, j) starts, in px. */
export const cellX = (layout, j) => layout.left + j * layout.cell;
export const cellY = (layout, i) => layout.top + i * layout.cell;

const NOTHING = Object.freeze({ fill: null, ink: null, text: '' });

export function createGridCells(svg, { rows, cols }) {
  const rowElements = [];
  const cells = [];
  for (let i = 0; i < rows; i += 1) {
    const row = svgElement('g', { role: 'row', 'aria-rowindex': i + 1 }, svg);
    rowElements.push(row);
    for (let j = 0; j < cols; j += 1) {
      const cell = svgElement('rect', {
        role: 'gridcell', 'aria-colindex': j + 1, tabindex: -1, class: CELL_CLASS, 'data-row': i, 'data-col': j,
      }, row);
      cell.drawn = NOTHING;
      cells.push(cell);
    }
  }

  return {
    rows: rowElements,
    cells,

    place(layout) {
      const { cell: size } = layout;
      cells.forEach((cell, index) => {
        cell.setAttribute('x', cellX(layout, index % cols));
        cell.setAttribute('y', cellY(layout, Math.floor(index / cols)));
        cell.setAttribute('width', size);
        cell.setAttribute('height', size);
      });
    },

    record(index, drawn) {
      cells[index].drawn = drawn;
    },
  };
}
