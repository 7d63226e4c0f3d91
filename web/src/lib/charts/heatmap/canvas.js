// The heat map's colours and printed numbers, drawn on one canvas under the map's SVG (which
// keeps the labels, the outlines and the grid's transparent cells above it). A slider that
// recolours a map then repaints one bitmap, not hundreds of SVG shapes and texts.
// - Crisp at any devicePixelRatio: the bitmap is the drawing's size times the ratio.
// - Themes need nothing: the palette and the inks are the same in light and dark, and the
//   1 px gaps between cells, and empty cells, are left clear, so the page's surface shows.
// - A number never runs into its neighbour: one too wide for its cell is printed with fewer
//   decimals, or not at all; the cell's name and the readout keep the exact value.
// - Each number takes the ink that reads best on its fill (contrast.js).

import { htmlElement, svgElement } from '../../dom/elements.js';
import { INKS, inkFor } from '../contrast.js';
import { cellX, cellY } from './cells.js';
import { CELL_PADDING_EM } from './labels.js';
const SAMPLE_TEXT = '0.00';
// At most this many number bitmaps kept per map (a few KiB each): every weight 0.00…1.00 in
// its ink fits, and a map of unbounded values (raw scores as training moves them) starts again
// from empty instead of growing without end.
const MAX_STAMPS = 160;

/**
 * `printed` read as a number, when it is `value` itself to fewer decimals (within half a unit of
 * its last decimal, and a hair more for the binary form of that half): { sign, whole, decimals,
 * unit, number }, the text around the digits kept. Else null (a percentage of the value, a
 * power of ten, a whole number, another value).
 */
function readPrinted(printed, value) {
  const parts = /^([^\d]*)(\d+)\.(\d+)([^\d]*)$/.exec(printed);
  if (!parts || value === null) return null;
  const [, sign, whole, decimals, unit] = parts;
  const number = Number(`${whole}.${decimals}`);
  if (Math.abs(Math.abs(value) - number) > 0.5 * 10 ** -decimals.length * (1 + 1e-9)) return null;
  return { sign, whole, decimals, unit, number };
}

/**
 * The number a cell prints, where `printed` is `value` itself to fewer decimals ("0.13" for
 * 0.1297, "−0.50" for −0.4996), else `value`. A map colours each cell for it: two cells that
 * read the same look the same, and a step that moves no printed digit repaints nothing (a τ step
 * repaints 22 of 64 cells instead of 47).
 */
export function shownValue(printed, value) {
  const read = readPrinted(printed, value);
  if (read === null || read.unit !== '' || !/^[\u2212-]?$/.test(read.sign)) return value;
  return read.sign ? -read.number : read.number;
}

/**
 * The text to print for `value`, first written as `printed`, that `fits`: as it is, else
 * with fewer decimals (rounded from the value itself, so no digit is one the value does not
 * have), else nothing.
 */
export function fitPrinted(printed, value, fits) {
  if (printed === '' || fits(printed)) return printed;
  const read = readPrinted(printed, value); // only the value itself is printed shorter
  if (read === null) return '';
  for (let k = read.decimals.length - 1; k >= 0; k -= 1) {
    const digits = Math.abs(value).toFixed(k);
    const zero = Number(digits) === 0;
    const shorter = `${zero ? '' : read.sign}${digits}${read.unit}`;
    if (fits(shorter)) return shorter;
  }
  return '';
}

/**
 * @param {HTMLElement} frame  the map's frame; the canvas goes in it, under `svg`
 * @param {SVGSVGElement} svg
 * @param {object} options  rows, cols, shown (print the numbers), onDrawn(index, { fill, ink,
 *        text }) for each cell whose drawing changed
 */
export function createCanvasPainter(frame, svg, { rows, cols, shown = true, onDrawn }) {
  const count = rows * cols;
  const canvas = htmlElement('canvas', { class: 'heatmap-canvas', 'aria-hidden': 'true' });
  frame.insertBefore(canvas, svg);
  // A hidden number in the page's own style, read for the font the canvas draws in.
  const sample = svgElement('text', { class: 'heatmap-value heatmap-value-sample', 'aria-hidden': 'true' }, svg);
  sample.textContent = SAMPLE_TEXT;
  const fills = new Array(count).fill(null);
  const texts = new Array(count).fill('');
  const values = new Array(count).fill(null);
  const drawn = new Array(count).fill(null); // { fill, ink, text } as last drawn
  const widths = new Map(); // printed text → its width in px at `font`
  let font = '';
  let fontPx = 0;
  let layout = null;
  let visible = Boolean(shown);
  let context = null;
  let penFont = null; // the font last given to the context (its own getter normalises it)
  // Each printed number in each ink, drawn once as a bitmap at the screen's pixel ratio and
  // then copied: fillText shapes the text anew on every call (about 9 µs a cell, 0.55 ms for
  // a map of 64 changed numbers), a bitmap copy costs a fraction of that.
  const stamps = new Map(); // `${ink} ${text}` → { bitmap, left, top } (device pixels)
  let stampsRatio = 0;

  function textWidth(text) {
    let width = widths.get(text);
    if (width === undefined) {
      width = pen().measureText(text).width;
      widths.set(text, width);
    }
    return width;
  }

  /** The 2-D context, its font set (a canvas's size change resets it). */
  function pen() {
    context ??= canvas.getContext('2d');
    if (penFont !== font) {
      context.font = font;
      penFont = font;
    }
    return context;
  }

  // Whether the bitmap holds exactly what `drawn` says. A new size, font or layout makes it
  // stale, and the next draw paints every cell; otherwise a draw repaints only the cells whose
  // colour, ink or number changed.
  let stale = true;
  // Counts the changes that make a kept drawing (snapshot()) useless: a new size, font,
  // layout, or numbers shown or hidden.
  let geometry = 0;
  function invalidate() {
    stale = true;
    geometry += 1;
  }

  /** A blank bitmap of `width` × `height` device pixels off the page (a canvas where there is no OffscreenCanvas). */
  function surfaceOf(width, height) {
    return typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(width, height)
      : Object.assign(document.createElement('canvas'), { width, height });
  }

  /**
   * Sizes the bitmap for the layout at the screen's pixel ratio, and the context's state. The
   * context draws in device pixels (no transform): every rectangle and copy is placed on the
   * bitmap's own grid, and a draw changes no state but the fill colour.
   */
  function prepare(ratio) {
    const width = Math.max(1, Math.round(layout.width * ratio));
    const height = Math.max(1, Math.round(layout.height * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width; // resets the context's state, its font too, and clears the bitmap
      canvas.height = height;
      penFont = null;
      invalidate();
    }
    const drawing = pen();
    drawing.setTransform(1, 0, 0, 1, 0, 0);
    return drawing;
  }

  /**
   * The device pixels of a cell's fill: the cell less half a px on each side (the 1 px gap the
   * SVG cells' stroke used to make), with every edge rounded to a whole device pixel. A fill
   * then covers each of its pixels entirely and no pixel of a neighbour's, so painting a cell
   * again over its old colour and number leaves exactly what painting it once would: a
   * changed cell needs no clearing first.
   */
  function fillBox(ratio, x, y, cell) {
    const left = Math.round((x + 0.5) * ratio);
    const top = Math.round((y + 0.5) * ratio);
    return [left, top, Math.round((x + cell - 0.5) * ratio) - left, Math.round((y + cell - 0.5) * ratio) - top];
  }

  function forgetStamps() {
    for (const { bitmap } of stamps.values()) bitmap.close?.();
    stamps.clear();
  }

  /**
   * Prints `text` in `ink` centred on (cx, cy) (CSS px) by copying its bitmap, made the first
   * time at the device pixel ratio. The copy lands on whole device pixels, so it is as sharp
   * as the text drawn in place; the centre moves by under half a device pixel.
   */
  function printText(drawing, ratio, text, ink, cx, cy) {
    if (ratio !== stampsRatio) {
      forgetStamps();
      stampsRatio = ratio;
    }
    const key = `${ink} ${text}`;
    let stamp = stamps.get(key);
    if (stamp === undefined) {
      if (stamps.size >= MAX_STAMPS) forgetStamps();
      const width = Math.ceil(textWidth(text) * ratio) + 4;
      const height = Math.ceil(fontPx * 1.6 * ratio) + 4;
      // An OffscreenCanvas's ImageBitmap where the browser has one (Safari before 16.4 has not):
      // else a canvas of its own, which drawImage copies as well.
      const surface = surfaceOf(width, height);
      const pen2d = surface.getContext('2d');
      pen2d.font = font;
      pen2d.setTransform(ratio, 0, 0, ratio, 0, 0);
      pen2d.textAlign = 'center';
      pen2d.textBaseline = 'middle';
      pen2d.fillStyle = INKS[ink];
      pen2d.fillText(text, width / 2 / ratio, height / 2 / ratio);
      const bitmap = surface.transferToImageBitmap ? surface.transferToImageBitmap() : surface;
      stamp = { bitmap, left: width / 2, top: height / 2 };
      stamps.set(key, stamp);
    }
    drawing.drawImage(stamp.bitmap, Math.round(cx * ratio - stamp.left), Math.round(cy * ratio - stamp.top));
  }

  const painter = {
    canvas,
    /** The hidden sample number, for measuring the size numbers are drawn at. */
    sample,
    /** What was drawn on each cell: { fill, ink, text }, or null before the first draw. */
    drawn,

    /** Reads the font numbers are printed in, from the page's style (reads layout). */
    measureFont() {
      const style = getComputedStyle(sample);
      const next = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      if (next !== font) {
        widths.clear();
        forgetStamps();
        invalidate();
      }
      font = next;
      fontPx = parseFloat(style.fontSize) || 0;
      canvas.dataset.font = font;
    },

    /** The widest printed number per character, at the font measured (0 before any). */
    measureDigit() {
      if (!font) return 0;
      let digit = 0;
      for (const text of texts) if (text) digit = Math.max(digit, textWidth(text) / text.length);
      return digit;
    },

    /** Sizes the canvas for `next` (writes only) and draws again. */
    place(next) {
      layout = next;
      invalidate();
      canvas.style.width = `${layout.width}px`;
      canvas.style.height = `${layout.height}px`;
      painter.draw();
    },

    /** Sets cell `index`'s fill ('#rrggbb', or null: empty) and its number; draw() shows them. */
    set(index, fill, text, value) {
      fills[index] = fill;
      texts[index] = text;
      values[index] = value;
    },

    /** Shows or hides every printed number (the cells keep the size that holds them). */
    show(on) {
      if (visible !== Boolean(on)) geometry += 1;
      visible = Boolean(on);
      painter.draw();
    },

    get shown() {
      return visible;
    },

    /** Where the cells are, as last placed (null before). */
    get layout() {
      return layout;
    },

    /**
     * Paints the cells and numbers that changed since the last draw (nothing before a layout),
     * each over its own old pixels (fillBox); after a new size, font or layout (stale), the
     * whole bitmap is cleared and every cell painted. A τ step repaints the 20-odd of 64 cells
     * whose colour or number moved, and the browser rasterises only those.
     */
    draw() {
      if (!layout) return;
      if (!font) painter.measureFont(); // once, where the map was drawn before any fitting
      const ratio = window.devicePixelRatio || 1;
      const drawing = prepare(ratio);
      const { cell } = layout;
      const room = cell - CELL_PADDING_EM * fontPx; // as the layout leaves room (labels.js)
      const fits = (text) => textWidth(text) <= room;
      const everything = stale;
      if (everything) drawing.clearRect(0, 0, canvas.width, canvas.height);
      for (let index = 0; index < count; index += 1) {
        const fill = fills[index];
        const text = fill === null || !visible ? '' : fitPrinted(texts[index], values[index], fits);
        const ink = fill === null ? null : inkFor(fill);
        const was = drawn[index];
        const same = was !== null && was.fill === fill && was.ink === ink && was.text === text;
        if (!same) {
          drawn[index] = { fill, ink, text };
          onDrawn(index, drawn[index]);
        }
        if (same && !everything) continue;
        const x = cellX(layout, index % cols);
        const y = cellY(layout, Math.floor(index / cols));
        const box = fillBox(ratio, x, y, cell);
        if (fill === null) {
          if (!everything) drawing.clearRect(...box); // a cell emptied (masked): the page shows through
          continue;
        }
        drawing.fillStyle = fill;
        drawing.fillRect(...box);
        if (text) printText(drawing, ratio, text, ink, x + cell / 2, y + cell / 2);
      }
      stale = false;
    },

    /**
     * A copy of the drawing as it stands (its bitmap and what each cell holds), for restore(),
     * or null while the bitmap is not up to date. The bitmap on screen is copied as it is: taken
     * from a drawing already painted, this draws nothing again.
     */
    snapshot() {
      if (stale || !layout) return null;
      const bitmap = surfaceOf(canvas.width, canvas.height);
      bitmap.getContext('2d').drawImage(canvas, 0, 0);
      return { geometry, bitmap, fills: [...fills], texts: [...texts], values: [...values], drawn: [...drawn] };
    },

    /**
     * Puts back a drawing kept by snapshot(): one copy of its bitmap instead of painting every
     * cell and number. False (nothing changed) when the size, font, layout or shown numbers
     * have changed since: the caller then draws as usual.
     */
    restore(kept) {
      if (kept.geometry !== geometry || stale || !layout) return false;
      const drawing = prepare(window.devicePixelRatio || 1);
      if (stale) return false; // the screen's pixel ratio changed: the bitmap was resized
      drawing.globalCompositeOperation = 'copy'; // every pixel from the kept bitmap, its clear gaps too
      drawing.drawImage(kept.bitmap, 0, 0);
      drawing.globalCompositeOperation = 'source-over';
      for (let index = 0; index < count; index += 1) {
        fills[index] = kept.fills[index];
        texts[index] = kept.texts[index];
        values[index] = kept.values[index];
        if (drawn[index] === kept.drawn[index]) continue;
        drawn[index] = kept.drawn[index];
        onDrawn(index, drawn[index]);
      }
      return true;
    },
  };
  return painter;
}
