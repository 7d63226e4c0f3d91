// The numbers printed on the heat map's cells: a layer of its own above the cells that ignores
// the pointer (hovering a number still hovers its cell) and is hidden from assistive
// technology (the cells' names carry the exact values). Each number takes the ink that reads
// best on its cell's fill (contrast.js). The layer can be switched off; the cells keep the
// size that holds the numbers, so switching them back on moves nothing.

import { svgElement } from '../../dom/elements.js';
import { inkFor } from '../contrast.js';
import { cellX, cellY } from './cells.js';

// A printed value's ink, by contrast with its cell (light ink is the default style).
const INK_CLASSES = { dark: 'heatmap-value-on-light', black: 'heatmap-value-on-mid' };

export function createValueLayer(svg, { count, shown = true }) {
  const layer = svgElement('g', { 'aria-hidden': 'true', class: 'heatmap-values' }, svg);
  const texts = Array.from({ length: count }, () => svgElement('text', {
    'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'heatmap-value',
  }, layer));
  const printed = texts.map(() => ({ text: '', ink: null })); // what each shows, so print() writes only changes
  let visible = true;

  const values = {
    layer,
    /** The first text, for measuring the size values are drawn at. */
    sample: texts[0],

    place(layout, cols) {
      texts.forEach((node, index) => {
        node.setAttribute('x', cellX(layout, index % cols) + layout.cell / 2);
        node.setAttribute('y', cellY(layout, Math.floor(index / cols)) + layout.cell / 2);
      });
    },

    /** Prints `text` on cell `index`, in the ink for `fill` (null: an empty cell, no text). */
    print(index, text, fill) {
      const ink = fill === null ? null : inkFor(fill);
      const was = printed[index];
      if (was.text !== text) texts[index].textContent = text;
      if (was.ink !== ink) {
        if (was.ink && was.ink !== 'light') texts[index].classList.remove(INK_CLASSES[was.ink]);
        if (ink && ink !== 'light') texts[index].classList.add(INK_CLASSES[ink]);
      }
      printed[index] = { text, ink };
    },

    /** The widest printed value per character, at the size the page draws it (reads layout). */
    measureDigit() {
      let digit = 0;
      for (const node of texts) {
        const chars = node.textContent.length;
        if (chars) digit = Math.max(digit, node.getComputedTextLength() / chars);
      }
      return digit;
    },

    get shown() {
      return visible;
    },

    /** Shows or hides every printed value (the cells' names keep the exact values). */
    show(on) {
      visible = Boolean(on);
      if (visible) layer.removeAttribute('visibility');
      else layer.setAttribute('visibility', 'hidden');
    },
  };
  values.show(shown);
  return values;
}
