// What a figure can hand out as a file: its pictures (heat maps and plots, as SVG or PNG)
// and its matrices (as CSV or JSON). This module keeps the registry; the Export menu
// (menu.js) lists it, files.js and picture.js turn each item into a file.
//
// Heat maps (heatmap.js) and plots (plot.js) register themselves: nothing to do for a
// figure that draws with them. Every heat map is exported as a picture AND as a matrix
// (the values it currently shows, with its row and column labels); every plot as a picture
// and as its data series.
//
// FOR FIGURE AUTHORS: a matrix that is not drawn as a heat map (or one you want under a
// clearer name, e.g. the raw scores or the outputs) is offered with
//
//   import { registerMatrix } from '../lib/export/registry.js';
//   registerMatrix(element, 'output O', () => ({
//     matrix: lastOutput,             // a core matrix { rows, cols, data } …
//     // values: [[…], […]],          // … or nested arrays (null = an empty / masked entry)
//     rowLabels: tokens,              // optional: default "0", "1", …
//     colLabels: features,            // optional
//     rowTitle: 'query', colTitle: 'feature', // optional: the CSV corner reads "query \ feature"
//   }));
//
// `element` is the figure's element (the one passed to mount); the callback runs when the
// reader exports, so it returns the CURRENT values (return null while there is nothing to
// export, e.g. after a failed computation). registerMatrix returns a function that removes
// the entry again. Names must be unique within a figure (a repeat gets " 2" appended).
//
// Pictures registered by heatmap.js/plot.js are listed in page order and only while they
// are rendered (a heat map in a hidden panel is not offered).

const pictures = new WeakMap(); // wrapper element of a heat map / plot → its descriptor
const registeredMatrices = new WeakMap(); // figure element → Map(name → getMatrix)

/**
 * Called by the primitives: marks `element` (the chart's wrapper, inside the figure) as
 * exportable. descriptor: { kind: 'heatmap' | 'plot', name, svg, getMatrix?, getSeries?, getLegend? }.
 * addShapes() (optional) adds shapes drawn outside the SVG (a heat map's canvas) to it for a
 * picture, and returns a function that removes them again.
 * getMatrix() → { rowLabels, colLabels, values, rowTitle?, colTitle? } or null;
 * getSeries() → { xLabel, yLabel, series: [{ name, x: number[], y: number[] }] } or null;
 * getLegend() → the legend to draw under the picture (see picture.js) or null.
 */
export function registerExportable(element, descriptor) {
  pictures.set(element, descriptor);
  element.setAttribute('data-exportable', descriptor.kind);
}

/** Offers an extra matrix of a figure for export (see the header). Returns an unregister function. */
export function registerMatrix(figureElement, name, getMatrix) {
  if (!figureElement || typeof name !== 'string' || typeof getMatrix !== 'function') {
    throw new Error('registerMatrix(figureElement, name, getMatrix): bad arguments');
  }
  if (!registeredMatrices.has(figureElement)) registeredMatrices.set(figureElement, new Map());
  const entries = registeredMatrices.get(figureElement);
  entries.set(name, getMatrix);
  return () => {
    if (entries.get(name) === getMatrix) entries.delete(name);
  };
}

function isRendered(element) {
  return element.isConnected && element.getClientRects().length > 0;
}

function uniqueNamer() {
  const seen = new Map();
  return (name) => {
    const base = String(name || 'untitled').trim() || 'untitled';
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base} ${count}`;
  };
}

/**
 * Everything the figure can export right now:
 * { pictures: [{ name, kind, svg, getMatrix?, getSeries?, getLegend? }],
 *   matrices: [{ name, getMatrix }],     // heat-map matrices first, then registered ones
 *   series:   [{ name, getSeries }] }    // the data of each plot
 */
export function listExportables(figureElement) {
  const pictureName = uniqueNamer();
  const list = { pictures: [], matrices: [], series: [] };
  for (const element of figureElement.querySelectorAll('[data-exportable]')) {
    const descriptor = pictures.get(element);
    if (!descriptor || !isRendered(element)) continue;
    const name = pictureName(descriptor.name);
    list.pictures.push({ ...descriptor, name });
    if (descriptor.getMatrix) list.matrices.push({ name, getMatrix: descriptor.getMatrix });
    if (descriptor.getSeries) list.series.push({ name, getSeries: descriptor.getSeries });
  }
  const matrixName = uniqueNamer();
  list.matrices.forEach((m) => matrixName(m.name));
  for (const [name, getMatrix] of registeredMatrices.get(figureElement) ?? []) {
    list.matrices.push({ name: matrixName(name), getMatrix });
  }
  return list;
}
