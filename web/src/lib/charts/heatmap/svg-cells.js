// The heat map's colours and numbers as SVG shapes, for Export and for print: the canvas
// (canvas.js) is what the page shows, but a picture file, and paper, get vectors. They are
// added to the live SVG just for the moment they are needed and taken out again, drawn from
// what the canvas last drew, in the page's classes (so an export copies their computed style
// like every other shape's).

import { svgElement } from '../../dom/elements.js';
import { cellX, cellY } from './cells.js';

const INK_CLASSES = { light: 'heatmap-value', dark: 'heatmap-value heatmap-value-on-light', black: 'heatmap-value heatmap-value-on-mid' };

/**
 * Adds the drawn cells and numbers to `svg`, under everything else in it, and returns a
 * function that removes them. `drawn` holds { fill, ink, text } per cell (null: not drawn).
 */
export function addSvgCells(svg, { layout, cols, drawn }) {
  if (!layout) return () => {};
  const group = svgElement('g', { class: 'heatmap-svg-cells', 'aria-hidden': 'true' });
  const { cell } = layout;
  drawn.forEach((entry, index) => {
    const x = cellX(layout, index % cols);
    const y = cellY(layout, Math.floor(index / cols));
    const empty = !entry || entry.fill === null;
    svgElement('rect', {
      x, y, width: cell, height: cell, fill: empty ? null : entry.fill,
      class: empty ? 'heatmap-svg-cell heatmap-svg-cell-empty' : 'heatmap-svg-cell',
    }, group);
    if (!empty && entry.text) {
      const text = svgElement('text', {
        x: x + cell / 2, y: y + cell / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', class: INK_CLASSES[entry.ink],
      }, group);
      text.textContent = entry.text;
    }
  });
  svg.insertBefore(group, svg.firstChild);
  return () => group.remove();
}

// Paper gets the vectors: every heat map in the document adds its SVG cells before printing
// and takes them out after (the stylesheet hides the canvases in print). One pair of
// listeners for the page, reaching the maps alive at that moment, so no map is kept by them.
const printers = new WeakMap(); // a map's element → its addSvgCells call
let listening = false;

/**
 * The heat maps in `root` and in every open shadow root inside it: an <attention-figure>
 * draws its maps in its shadow root, where the stylesheet hides their canvases in print too.
 * Walked only when the page is printed.
 */
function mapsIn(root) {
  const maps = [...root.querySelectorAll('.heatmap')];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) maps.push(...mapsIn(element.shadowRoot));
  }
  return maps;
}

export function printWithSvgCells(element, add) {
  printers.set(element, add);
  if (listening || typeof window === 'undefined') return;
  listening = true;
  let undo = [];
  window.addEventListener('beforeprint', () => {
    for (const map of mapsIn(document)) {
      const addCells = printers.get(map);
      if (addCells) undo.push(addCells());
    }
  });
  window.addEventListener('afterprint', () => {
    undo.forEach((remove) => remove());
    undo = [];
  });
}
