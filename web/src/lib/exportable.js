// What a figure can hand out as a file: its pictures (heat maps and plots, as SVG or PNG)
// and its matrices (as CSV or JSON). The figure toolbar (figure-toolbar.js) lists them in
// its Export menu; this module keeps the registry and turns each item into a file.
//
// Heat maps (heatmap.js) and plots (plot.js) register themselves: nothing to do for a
// figure that draws with them. Every heat map is exported as a picture AND as a matrix
// (the values it currently shows, with its row and column labels); every plot as a picture
// and as its data series.
//
// FOR FIGURE AUTHORS: a matrix that is not drawn as a heat map (or one you want under a
// clearer name, e.g. the raw scores or the outputs) is offered with
//
//   import { registerMatrix } from '../lib/exportable.js';
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

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Called by the primitives: marks `element` (the chart's wrapper, inside the figure) as
 * exportable. descriptor: { kind: 'heatmap' | 'plot', name, svg, getMatrix?, getSeries? }.
 * getMatrix() → { rowLabels, colLabels, values, rowTitle?, colTitle? } or null;
 * getSeries() → { xLabel, yLabel, series: [{ name, x: number[], y: number[] }] } or null.
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
 * { pictures: [{ name, kind, svg, getMatrix?, getSeries? }],
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

// ---------------------------------------------------------------------------------------
// Matrices and series as text

function cleanNumber(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Brings whatever a getMatrix callback returned into one shape:
 * { rows, cols, rowLabels, colLabels, rowTitle, colTitle, values: (number|null)[][] }, or null.
 */
export function normaliseMatrix(raw) {
  if (!raw) return null;
  let values;
  const source = raw.matrix ?? (Array.isArray(raw.values) ? raw.values : raw);
  if (Array.isArray(source)) {
    values = source.map((row) => Array.from(row, cleanNumber));
  } else if (source && Number.isInteger(source.rows) && Number.isInteger(source.cols) && source.data) {
    values = Array.from({ length: source.rows }, (_, i) => Array.from(
      { length: source.cols }, (_, j) => cleanNumber(source.data[i * source.cols + j]),
    ));
  } else {
    return null;
  }
  const rows = values.length;
  const cols = rows ? values[0].length : 0;
  if (values.some((row) => row.length !== cols)) return null;
  const labels = (given, count) => (Array.isArray(given) && given.length === count
    ? given.map(String) : Array.from({ length: count }, (_, k) => String(k)));
  return {
    rows, cols, values,
    rowLabels: labels(raw.rowLabels, rows), colLabels: labels(raw.colLabels, cols),
    rowTitle: raw.rowTitle ?? '', colTitle: raw.colTitle ?? '',
  };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLines(rows) {
  return `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** A normalised matrix as CSV: a header row of column labels, then one row per matrix row led by its label. */
export function matrixToCsv(matrix) {
  const corner = matrix.rowTitle || matrix.colTitle ? `${matrix.rowTitle} \\ ${matrix.colTitle}`.trim() : '';
  return csvLines([[corner, ...matrix.colLabels], ...matrix.values.map((row, i) => [matrix.rowLabels[i], ...row])]);
}

/** JSON with two-space indents, but each array of plain values (a row of numbers) on one line. */
export function compactJson(value, indent = '') {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + compactJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A normalised matrix as the JSON document of the Export menu. */
export function matrixToJson(matrix, { figure, name, settings }) {
  const document = {
    figure, name, rows: matrix.rows, cols: matrix.cols,
    rowTitle: matrix.rowTitle || undefined, colTitle: matrix.colTitle || undefined,
    rowLabels: matrix.rowLabels, colLabels: matrix.colLabels, values: matrix.values, settings,
  };
  return `${compactJson(document)}\n`;
}

/** Brings a getSeries result into { xLabel, yLabel, series: [{ name, x, y }] } with plain arrays, or null. */
export function normaliseSeries(raw) {
  if (!raw || !Array.isArray(raw.series)) return null;
  return {
    xLabel: raw.xLabel ?? 'x', yLabel: raw.yLabel ?? 'y',
    series: raw.series.map((s, k) => ({
      name: String(s.name ?? `series ${k}`), x: Array.from(s.x, cleanNumber), y: Array.from(s.y, cleanNumber),
    })),
  };
}

/**
 * Plot data as CSV. When every series shares the same x values: one column for x and one per
 * series; otherwise the long form, one line per point: series, x, y.
 */
export function seriesToCsv(data) {
  const first = data.series[0]?.x ?? [];
  const shared = data.series.every((s) => s.x.length === first.length && s.x.every((v, i) => v === first[i]));
  if (shared) {
    return csvLines([[data.xLabel, ...data.series.map((s) => s.name)], ...first.map((x, i) => [x, ...data.series.map((s) => s.y[i])])]);
  }
  return csvLines([['series', data.xLabel, data.yLabel], ...data.series.flatMap((s) => s.x.map((x, i) => [s.name, x, s.y[i]]))]);
}

export function seriesToJson(data, { figure, name, settings }) {
  return `${compactJson({ figure, name, xLabel: data.xLabel, yLabel: data.yLabel, series: data.series, settings })}\n`;
}

/** A file-name-safe slug: "head 0 of 4, weights" → "head-0-of-4-weights". */
export function slug(text) {
  const ascii = String(text).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
}

// ---------------------------------------------------------------------------------------
// Pictures

// Properties copied from the computed style onto each element of the exported SVG, so the
// file looks like the page without its stylesheet.
const PAINT = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray',
  'stroke-linecap', 'stroke-linejoin', 'opacity', 'visibility'];
const TEXT = ['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing',
  'paint-order'];
// Attributes that only matter on the live page.
const LIVE_ONLY = ['tabindex', 'class', 'aria-describedby', 'aria-selected', 'focusable'];

// Initial values: an attribute with one of these says nothing and is left out of the file.
const INITIAL = {
  'fill-opacity': '1', 'stroke-opacity': '1', opacity: '1', stroke: 'none', 'stroke-dasharray': 'none',
  'stroke-linecap': 'butt', 'stroke-linejoin': 'miter', visibility: 'visible', 'font-weight': '400',
  'font-style': 'normal', 'dominant-baseline': 'auto', 'text-anchor': 'start', 'letter-spacing': 'normal',
  'paint-order': 'normal',
};
const STROKE_DETAILS = new Set(['stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-linecap', 'stroke-linejoin']);

function copyComputed(source, target, rootFont) {
  const style = getComputedStyle(source);
  const tag = source.localName;
  const props = tag === 'text' || tag === 'tspan' ? [...PAINT, ...TEXT] : tag === 'svg' || tag === 'g' ? ['opacity', 'visibility'] : PAINT;
  const stroked = style.getPropertyValue('stroke').trim() !== 'none';
  for (const prop of props) {
    const value = style.getPropertyValue(prop).trim();
    if (!value || value === INITIAL[prop] || (!stroked && STROKE_DETAILS.has(prop))) continue;
    if (prop === 'font-family' && value === rootFont) continue; // inherited from the root
    target.setAttribute(prop, value);
  }
  for (const name of LIVE_ONLY) target.removeAttribute(name);
  for (const name of [...target.getAttributeNames()]) if (name.startsWith('data-')) target.removeAttribute(name);
}

function parseViewBox(svg) {
  const numbers = (svg.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  if (numbers.length === 4 && numbers.every(Number.isFinite)) return numbers;
  const box = svg.getBoundingClientRect();
  return [0, 0, box.width || 300, box.height || 150];
}

function legendFor(plotSvg, clone, series, [x, y, width], fontSource) {
  // The plot's legend is HTML beside the SVG; the file gets its own copy under the plot.
  const font = getComputedStyle(fontSource);
  const fontSize = 12;
  const pitch = 18;
  const group = document.createElementNS(SVG_NS, 'g');
  series.forEach((s, index) => {
    const sample = plotSvg.querySelector(`.plot-line.plot-series-${index}`);
    const style = sample ? getComputedStyle(sample) : null;
    const top = y + 8 + index * pitch;
    const line = document.createElementNS(SVG_NS, 'line');
    for (const [name, value] of Object.entries({
      x1: x + 8, x2: x + 36, y1: top + pitch / 2, y2: top + pitch / 2,
      stroke: style?.stroke ?? '#000', 'stroke-width': style?.strokeWidth ?? 2,
      'stroke-dasharray': style?.strokeDasharray ?? 'none',
    })) line.setAttribute(name, String(value));
    const text = document.createElementNS(SVG_NS, 'text');
    for (const [name, value] of Object.entries({
      x: x + 44, y: top + pitch / 2, 'dominant-baseline': 'central', 'font-size': `${fontSize}px`,
      'font-family': font.fontFamily, fill: font.color,
    })) text.setAttribute(name, String(value));
    text.textContent = s.name;
    group.append(line, text);
  });
  clone.appendChild(group);
  const widest = Math.max(0, ...series.map((s) => 44 + s.name.length * fontSize * 0.6 + 8));
  return { height: series.length ? 16 + series.length * pitch : 0, width: Math.max(width, widest) };
}

/**
 * A standalone copy of a live SVG: computed colours and fonts inlined as presentation
 * attributes, xmlns, explicit width/height, a background rectangle, no classes, no
 * references outside the file. Returns { text, width, height } (width/height in px).
 * options.background: a CSS colour (default: the figure's surface colour, else white);
 * options.series: for plots, the series whose legend is drawn under the plot.
 */
export function standaloneSvg(svg, { background = null, series = null, padding = 8 } = {}) {
  const clone = svg.cloneNode(true);
  const sources = [svg, ...svg.querySelectorAll('*')];
  const targets = [clone, ...clone.querySelectorAll('*')];
  const drop = [];
  const rootFont = getComputedStyle(svg).getPropertyValue('font-family').trim();
  sources.forEach((source, k) => {
    const target = targets[k];
    if (source.localName === 'title' || source.localName === 'desc') return;
    if (k > 0 && getComputedStyle(source).display === 'none') {
      drop.push(target);
      return;
    }
    copyComputed(source, target, rootFont);
  });
  if (rootFont) clone.setAttribute('font-family', rootFont);
  drop.forEach((node) => node.remove());

  // Grow the view box to whatever the content covers (slanted labels may poke out of it).
  let [x, y, width, height] = parseViewBox(svg);
  try {
    const box = svg.getBBox();
    if (box.width > 0 && box.height > 0) {
      const right = Math.max(x + width, box.x + box.width);
      const bottom = Math.max(y + height, box.y + box.height);
      x = Math.min(x, box.x);
      y = Math.min(y, box.y);
      width = right - x;
      height = bottom - y;
    }
  } catch {
    // getBBox throws for an SVG that is not rendered; keep the view box.
  }
  if (series?.length) {
    const titleNode = svg.parentElement?.querySelector('.plot-legend') ?? svg.querySelector('text') ?? svg;
    const legend = legendFor(svg, clone, series, [x, y + height, width], titleNode);
    height += legend.height;
    width = legend.width;
  }
  x -= padding;
  y -= padding;
  width += 2 * padding;
  height += 2 * padding;
  const round = (v) => Math.round(v * 100) / 100;
  [x, y, width, height] = [x, y, width, height].map(round);

  const surface = background ?? (svg.closest('[data-figure]') ? getComputedStyle(svg.closest('[data-figure]')).backgroundColor : null);
  const fill = !surface || surface === 'rgba(0, 0, 0, 0)' || surface === 'transparent' ? '#ffffff' : surface;
  const backdrop = document.createElementNS(SVG_NS, 'rect');
  for (const [name, value] of Object.entries({ x, y, width, height, fill })) backdrop.setAttribute(name, String(value));
  clone.insertBefore(backdrop, clone.firstChild);

  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('version', '1.1');
  clone.setAttribute('viewBox', `${x} ${y} ${width} ${height}`);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.removeAttribute('role');
  clone.setAttribute('role', 'img');
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`;
  return { text, width, height };
}

/**
 * Draws standalone SVG text onto a canvas at `scale` times its size and resolves to a PNG
 * Blob. The SVG goes through an <img> with a data: URL (the page's CSP allows data: images,
 * not blob: ones).
 */
export function svgToPng(svgText, width, height, scale = 2) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(width * scale));
      canvas.height = Math.max(1, Math.round(height * scale));
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the browser could not encode a PNG'))), 'image/png');
    };
    image.onerror = () => reject(new Error('the browser could not draw the SVG'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  });
}

/** Saves text or a Blob as a file through a temporary <a download> with a Blob URL. */
export function downloadFile(filename, data, type = 'application/octet-stream') {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}
