// The two small planes of the "by hand" figure: a grid that refits to the vectors, and arrows
// from the origin whose tips the learner drags with the pointer or moves with the arrow keys.

import { DEFAULT_REM, fitChart } from '../../lib/charts/fit.js';
import { htmlElement, svgElement } from '../../lib/dom/elements.js';
import { MAX, MIN, clamp, fitWindow, fmtComponent, fmtVector } from './model.js';

const PLANE = 240; // side of a plane's drawing area, in viewBox units
const PAD = 16; // room around it for labels
const DRAG_SNAP = 0.1; // dragged tips land on a 0.1 grid
const KEY_STEP = 0.1; // an arrow key moves a focused tip this far (Shift: KEY_STEP_LARGE)
const KEY_STEP_LARGE = 1;
const MAX_WIDTH_REM = 22; // the plane's largest width (.by-hand-plane-svg's max-width)

// The plane is drawn in viewBox units and scaled to its width, but its text keeps the page's
// chart sizes on screen (13 px names, 11 px ticks at 100 % text, twice that at 200 %), like
// every other chart: the text's size in viewBox units is set from the plane's scale and the
// reader's text size (--by-hand-per-px, viewBox units per screen pixel), and the offsets and
// line heights below, made for 13-unit text, are multiplied by `plane.text` (the text's size
// in viewBox units over 13).

/** A plane with a grid, axes and layers for arrows; maps plane coordinates to the viewBox. */
export function createPlane(parent, { label, title }) {
  const wrapper = htmlElement('div', { class: 'by-hand-plane' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, title, wrapper);
  const svg = svgElement('svg', {
    viewBox: `${-PAD} ${-PAD} ${PLANE + 2 * PAD} ${PLANE + 2 * PAD}`, role: 'group', 'aria-label': label,
    class: 'by-hand-plane-svg',
  }, wrapper);
  const grid = svgElement('g', { 'aria-hidden': 'true', class: 'by-hand-grid' }, svg);
  const arrows = svgElement('g', { 'aria-hidden': 'true' }, svg);
  const marks = svgElement('g', { 'aria-hidden': 'true' }, svg);
  const handles = svgElement('g', {}, svg);

  let window = fitWindow([]);
  let unit = PLANE / (window.high - window.low);
  let textScale = 1;
  let onRefit = () => {};
  const plane = {
    wrapper, svg, arrows, handles, marks,
    /** The labels' size in viewBox units, over the 13 units the layout was made for. */
    get text() {
      return textScale;
    },
    /** Calls `redraw` whenever the plane's scale or the reader's text size changes. */
    set onRefit(redraw) {
      onRefit = redraw;
    },
    toX: (x) => (x - window.low) * unit,
    toY: (y) => (window.high - y) * unit,
    /** Plane coordinates of a pointer event, from the SVG's current screen transform. */
    fromClient(event) {
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      const local = point.matrixTransform(svg.getScreenCTM().inverse());
      return [local.x / unit + window.low, window.high - local.y / unit];
    },
    get window() {
      return window;
    },
    /** Redraws the grid for a new window (a no-op if it is unchanged). */
    setWindow(next, { force = false } = {}) {
      if (!force && grid.firstChild && next.low === window.low && next.high === window.high) return;
      window = next;
      unit = PLANE / (window.high - window.low);
      grid.replaceChildren();
      const { toX, toY } = plane;
      const every = window.high - window.low > 6 ? 2 : 1; // label every other line when zoomed out
      for (let t = window.low; t <= window.high; t += 1) {
        const cls = t === 0 ? 'by-hand-axis' : 'by-hand-gridline';
        svgElement('line', { x1: toX(t), y1: toY(window.low), x2: toX(t), y2: toY(window.high), class: cls }, grid);
        svgElement('line', { x1: toX(window.low), y1: toY(t), x2: toX(window.high), y2: toY(t), class: cls }, grid);
        if (t !== 0 && t % every === 0) {
          const k = textScale;
          svgElement('text', { x: toX(t), y: toY(0) + 3 * k, 'text-anchor': 'middle', 'dominant-baseline': 'hanging', class: 'by-hand-tick' }, grid).textContent = fmtComponent(t);
          svgElement('text', { x: toX(0) - 5 * k, y: toY(t), 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'by-hand-tick' }, grid).textContent = fmtComponent(t);
        }
      }
    },
  };
  plane.setWindow(window);

  fitChart(wrapper, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    measure: (size) => size,
    apply: ({ width, rem }) => {
      const drawn = Math.min(width, MAX_WIDTH_REM * rem); // the svg's width in screen pixels
      const perPx = (PLANE + 2 * PAD) / drawn;
      svg.style.setProperty('--by-hand-per-px', perPx.toFixed(4));
      textScale = (rem / DEFAULT_REM) * perPx;
      plane.setWindow(window, { force: true });
      onRefit();
    },
  });
  return plane;
}

/**
 * Moves labels apart where they overlap each other or an obstacle ({ x, y, width, height }
 * boxes in viewBox units, e.g. the output dot): each label in turn is stepped down, or up
 * when it would leave the plane, until it is clear. Labels are SVG texts with x/y set and
 * anchored in the middle. `scale`: the labels' size over 13 viewBox units (plane.text).
 */
export function declutter(labels, obstacles = [], scale = 1) {
  const LINE = 13 * scale;
  const placed = obstacles.map((o) => ({ ...o }));
  const boxOf = (text, y) => {
    const width = Math.max(8, text.textContent.length * 6.6) * scale;
    const x = Number(text.getAttribute('x'));
    const anchor = text.getAttribute('text-anchor');
    const left = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2;
    return { x: left, y: y - LINE / 2, width, height: LINE };
  };
  // Boxes that only touch do not overlap: a note placed exactly one line above its name (noteAt)
  // touches it, and without this margin the rounding of y ± LINE could call that an overlap and
  // send the note two lines up, away from its arrow.
  const EDGE = 0.5;
  const overlaps = (a, b) => a.x < b.x + b.width - EDGE && b.x < a.x + a.width - EDGE
    && a.y < b.y + b.height - EDGE && b.y < a.y + a.height - EDGE;
  for (const text of labels) {
    if (!text.textContent) continue;
    const start = Number(text.getAttribute('y'));
    let best = start;
    // Try the nearest free line: 0, +1, −1, +2, −2, … lines away, inside the plane.
    for (let step = 0; step < 12; step += 1) {
      const offset = (step % 2 ? 1 : -1) * Math.ceil(step / 2) * LINE;
      const y = start + offset;
      if (y < -PAD + LINE / 2 || y > PLANE + PAD - LINE / 2) continue;
      if (!placed.some((box) => overlaps(boxOf(text, y), box))) {
        best = y;
        break;
      }
    }
    text.setAttribute('y', best);
    placed.push(boxOf(text, best));
  }
}

/**
 * An arrow from the origin with a head, a text label and a draggable, focusable tip.
 * `under`: its shaft and head are drawn beneath every other arrow (its tip stays on top), so
 * a thick query lying on a key shows as a band around the key, never hiding it.
 */
export function createArrow(plane, { name, kind, onMove, onRelease, under = false }) {
  const cls = `by-hand-${kind}`;
  const line = svgElement('line', { class: `by-hand-shaft ${cls}`, 'stroke-width': 2.5 }, plane.arrows);
  const head = svgElement('polygon', { class: `by-hand-head ${cls}` }, plane.arrows);
  if (under) plane.arrows.prepend(line, head);
  const headSize = under ? 1.6 : 1; // a wider head, to show around a key's head on top of it
  const text = svgElement('text', { class: `by-hand-label ${cls}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, plane.marks);
  text.textContent = name;
  const handle = svgElement('g', {
    class: `by-hand-handle ${cls}`, tabindex: 0, role: 'slider', 'aria-label': `tip of ${name}`,
    'aria-roledescription': 'point you can drag or move with the arrow keys',
    'aria-valuemin': MIN, 'aria-valuemax': MAX,
  }, plane.handles);
  // While a tip is dragged the window stays put (so the tip stays under the pointer); the
  // planes refit when it is let go.
  let dragging = false;
  svgElement('circle', { r: 15, class: 'by-hand-handle-hit' }, handle);
  svgElement('circle', { r: 11, class: 'by-hand-handle-focus' }, handle);
  svgElement('circle', { r: 5, class: `by-hand-handle-dot ${cls}` }, handle);

  let current = [0, 0];
  let labelAt = [0, 0, 0]; // where the name label sits, and which way the arrow points (for extra text)
  handle.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    handle.focus({ preventScroll: true });
    handle.classList.add('by-hand-dragging');
    dragging = true;
  });
  handle.addEventListener('pointermove', (event) => {
    if (!handle.hasPointerCapture(event.pointerId)) return;
    const { low, high } = plane.window;
    const snap = (v) => clamp(Math.min(high, Math.max(low, Math.round(v / DRAG_SNAP) * DRAG_SNAP)));
    const [x, y] = plane.fromClient(event);
    const next = [Number(snap(x).toFixed(1)), Number(snap(y).toFixed(1))];
    if (next[0] !== current[0] || next[1] !== current[1]) onMove(next);
  });
  const release = (event) => {
    if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
    handle.classList.remove('by-hand-dragging');
    if (dragging) {
      dragging = false;
      onRelease();
    }
  };
  handle.addEventListener('pointerup', release);
  handle.addEventListener('pointercancel', release);
  handle.addEventListener('keydown', (event) => {
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    // Round to hundredths so that repeated steps do not pile up floating-point dust.
    onMove(current.map((v, i) => clamp(Math.round((v + move[i]) * 100) / 100)));
  });

  return {
    get dragging() {
      return dragging;
    },
    set([x, y]) {
      current = [x, y];
      line.setAttribute('x1', plane.toX(0));
      line.setAttribute('y1', plane.toY(0));
      const tipX = plane.toX(x);
      const tipY = plane.toY(y);
      line.setAttribute('x2', tipX);
      line.setAttribute('y2', tipY);
      const dx = tipX - plane.toX(0);
      const dy = tipY - plane.toY(0);
      const length = Math.hypot(dx, dy);
      if (length > 1e-9) {
        const ux = dx / length;
        const uy = dy / length;
        const back = Math.min(10 * headSize, length);
        const half = 5 * headSize;
        const baseX = tipX - ux * back;
        const baseY = tipY - uy * back;
        head.setAttribute('points', `${tipX},${tipY} ${baseX - uy * half},${baseY + ux * half} ${baseX + uy * half},${baseY - ux * half}`);
        head.removeAttribute('visibility');
      } else {
        head.setAttribute('visibility', 'hidden');
      }
      // The label sits beyond the tip (queries to the side, so they clear a key at the same place).
      const [ox, oy] = length > 1e-9 ? [dx / length, dy / length] : [0.7, -0.7];
      // Beyond the dot (5 units) by the label's half height and a little more.
      const away = 7 + 9 * plane.text;
      const [lx, ly] = kind === 'query' ? [-oy * away, ox * away] : [ox * away, oy * away];
      text.setAttribute('x', tipX + lx);
      text.setAttribute('y', tipY + ly);
      labelAt = [tipX + lx, tipY + ly, oy];
      handle.setAttribute('transform', `translate(${tipX} ${tipY})`);
      handle.setAttribute('aria-valuenow', x);
      handle.setAttribute('aria-valuetext', `${name} = ${fmtVector([x, y], fmtComponent)}`);
    },
    setWidth(width) {
      line.setAttribute('stroke-width', width);
    },
    /** The name label, for declutter(). */
    label: text,
    /** Where a second line of text can go next to the name label without covering the arrow. */
    noteAt() {
      const [x, y, pointsDown] = labelAt;
      return [x, pointsDown > 0 ? y + 13 * plane.text : y - 13 * plane.text];
    },
  };
}
