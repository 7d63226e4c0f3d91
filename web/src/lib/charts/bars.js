// A labelled bar chart of one vector (e.g. the weights of one query row), with every value
// printed in a column beside its bar. Horizontal bars read best on narrow screens.
//
// Built from HTML boxes in a CSS grid, not SVG: the label column is as wide as the longest
// label, the values' column as wide as `valueChars` characters, and the bars take the width
// that is left (styles/charts.css), so the text keeps its size on a phone and grows with the
// reader's text size without measuring anything. A bar is its track's background, filled up
// to a custom property (--al-bar-share), so a new length repaints one box and lays nothing
// out; update() writes only the lengths, texts and names that changed. (A transform would
// lay nothing out either, but a changed transform is a changed property tree, and Chromium
// then sorts the whole page into compositor layers again on every step.)

import { scaleLinear } from 'd3-scale';
import { formatWeight, formatWeightExact } from '../format/index.js';
import { fixedTextBox, htmlElement, setText } from '../dom/elements.js';
import { drawWhenOnScreen } from './on-screen.js';

/** One row per bar in `list`: its label, track (the bar), printed value, and what each was last set to. */
function createBarItems(list, labels, names) {
  return labels.map((text, i) => {
    const row = htmlElement('div', { role: 'listitem', class: 'bar' }, null, list);
    htmlElement('span', { class: 'bar-label', 'aria-hidden': 'true' }, text, row);
    const track = htmlElement('span', { class: 'bar-track', 'aria-hidden': 'true' }, null, row);
    const valueCell = htmlElement('span', { class: 'bar-value', 'aria-hidden': 'true' }, null, row);
    const value = fixedTextBox(valueCell);
    return { row, track, value, name: names[i], was: { share: null, text: null, name: null, highlight: false } };
  });
}

/** One bar's length (a share of the track, 0…1), printed value and highlight, where they changed. */
function drawBar(item, { share, printed, highlighted }) {
  const { was } = item;
  if (was.share !== share) {
    item.track.style.setProperty('--al-bar-share', `${(100 * share).toFixed(1)}%`);
    was.share = share;
  }
  if (was.text !== printed) {
    setText(item.value, printed);
    was.text = printed;
  }
  if (was.highlight !== highlighted) {
    item.row.classList.toggle('bar-highlight', highlighted);
    was.highlight = highlighted;
  }
}

/** One bar's spoken name, where it changed: never kept waiting, whether the bar is seen or not. */
function nameBar(item, name) {
  if (item.was.name !== name) {
    item.row.setAttribute('aria-label', name);
    item.was.name = name;
  }
}

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string[]} options.labels
 * @param {string[]} [options.names]           spoken names of the bars (default: labels)
 * @param {string} options.label               accessible name of the chart
 * @param {[number, number]} [options.domain]   value range of the bar length
 * @param {(v: number) => string} [options.format]       printed value
 * @param {(v: number) => string} [options.formatExact]  value in accessible names
 * @param {number} [options.valueChars]  room kept for the printed value, in characters (default 6)
 * @param {boolean} [options.waitOffScreen]  for bars redrawn at every key press: off screen, their
 *        lengths, printed values and highlight wait until they come near the screen (on-screen.js);
 *        their spoken names never wait
 */
export function createBars(container, options) {
  const { labels, label, domain = [0, 1], format = formatWeight, formatExact = formatWeightExact } = options;
  const list = htmlElement('div', { class: 'bars', role: 'list', 'aria-label': label }, null, container);
  // The values' column, in the printed numbers' own (monospace) characters. Set through the
  // CSSOM, which a Content-Security-Policy without 'unsafe-inline' allows.
  list.style.setProperty('--al-bar-value-chars', String(options.valueChars ?? 6));
  const items = createBarItems(list, labels, options.names ?? labels);
  // Rounded to 1/1000 of the track: finer than a pixel of the longest bar, and a repeat of
  // the same length writes nothing.
  const toShare = scaleLinear().domain(domain).range([0, 1]).clamp(true);
  const shareOf = (v) => Math.round(1000 * (toShare(v) || 0)) / 1000;
  const screen = options.waitOffScreen ? drawWhenOnScreen(list) : null;

  return {
    element: list,
    /**
     * Redraws the bars for new values; `highlight` marks one bar (e.g. the largest); `texts`
     * replaces the printed and spoken value of some bars (null entries keep the format), for a
     * value better told another way ("1 − 4.8×10⁻²⁸" for a weight that rounds to 1).
     */
    update(values, { highlight = null, texts = null } = {}) {
      if (values.length !== items.length) throw new Error(`bars: expected ${items.length} values, got ${values.length}`);
      const looks = items.map((item, i) => {
        const v = values[i];
        const text = texts?.[i] ?? null;
        nameBar(item, `${item.name}: ${text ?? formatExact(v)}`);
        return { share: shareOf(v), printed: text ?? format(v), highlighted: i === highlight };
      });
      const draw = () => items.forEach((item, i) => drawBar(item, looks[i]));
      if (screen) screen.draw(draw);
      else draw();
    },
  };
}
