// A live SVG chart (heat map or plot) as a picture file: a standalone SVG with the page's
// computed colours and fonts written into it, and a PNG drawn from that SVG.

const SVG_NS = 'http://www.w3.org/2000/svg';


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

/** A shape with neither fill nor stroke (a heat map's grid cell, say): nothing for a picture. */
function paintsNothing(element) {
  if (!(element instanceof SVGGeometryElement)) return false;
  const style = getComputedStyle(element);
  const clear = (paint) => paint === 'none' || paint === 'transparent' || paint === 'rgba(0, 0, 0, 0)';
  return clear(style.fill) && clear(style.stroke);
}

function parseViewBox(svg) {
  const numbers = (svg.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  if (numbers.length === 4 && numbers.every(Number.isFinite)) return numbers;
  const box = svg.getBoundingClientRect();
  return [0, 0, box.width || 300, box.height || 150];
}

/**
 * Draws a plot's legend into the exported SVG under the chart (on the page the legend is HTML
 * beside the SVG). legend: { items: [{ name, stroke, strokeWidth, strokeDasharray }],
 * fontFamily, color }, as the plot hands it over (plot.js, getLegend).
 */
function drawLegend(clone, legend, [x, y, width]) {
  const fontSize = 12;
  const pitch = 18;
  const group = document.createElementNS(SVG_NS, 'g');
  legend.items.forEach((item, index) => {
    const top = y + 8 + index * pitch;
    const line = document.createElementNS(SVG_NS, 'line');
    for (const [name, value] of Object.entries({
      x1: x + 8, x2: x + 36, y1: top + pitch / 2, y2: top + pitch / 2,
      stroke: item.stroke ?? '#000', 'stroke-width': item.strokeWidth ?? 2,
      'stroke-dasharray': item.strokeDasharray ?? 'none',
    })) line.setAttribute(name, String(value));
    const text = document.createElementNS(SVG_NS, 'text');
    for (const [name, value] of Object.entries({
      x: x + 44, y: top + pitch / 2, 'dominant-baseline': 'central', 'font-size': `${fontSize}px`,
      'font-family': legend.fontFamily, fill: legend.color,
    })) text.setAttribute(name, String(value));
    text.textContent = item.name;
    group.append(line, text);
  });
  clone.appendChild(group);
  const widest = Math.max(0, ...legend.items.map((item) => 44 + item.name.length * fontSize * 0.6 + 8));
  return { height: legend.items.length ? 16 + legend.items.length * pitch : 0, width: Math.max(width, widest) };
}

/**
 * A standalone copy of a live SVG: computed colours and fonts inlined as presentation
 * attributes, xmlns, explicit width/height, a background rectangle, no classes, no
 * references outside the file. Returns { text, width, height } (width/height in px).
 * options.background: a CSS colour (default: the figure's surface colour, else white);
 * options.legend: for plots, the legend drawn under the chart (see drawLegend).
 */
export function standaloneSvg(svg, { background = null, legend = null, padding = 8 } = {}) {
  const clone = svg.cloneNode(true);
  const sources = [svg, ...svg.querySelectorAll('*')];
  const targets = [clone, ...clone.querySelectorAll('*')];
  const drop = [];
  const rootFont = getComputedStyle(svg).getPropertyValue('font-family').trim();
  sources.forEach((source, k) => {
    const target = targets[k];
    if (source.localName === 'title' || source.localName === 'desc') return;
    if (k > 0 && (getComputedStyle(source).display === 'none' || paintsNothing(source))) {
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
  if (legend?.items.length) {
    const drawn = drawLegend(clone, legend, [x, y + height, width]);
    height += drawn.height;
    width = drawn.width;
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
 * A registered chart (see registry.js) as a standalone SVG: its shapes drawn elsewhere (a heat
 * map's canvas) are added as SVG for the moment of the copy (item.addShapes), then removed.
 */
export function chartPicture(item) {
  const removeShapes = item.addShapes?.();
  try {
    return standaloneSvg(item.svg, { legend: item.getLegend?.() ?? null });
  } finally {
    removeShapes?.();
  }
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
