// A labelled bar chart of one vector (e.g. the weights of one query row), with every
// value printed next to its bar. Horizontal bars read best on narrow screens.

import { scaleLinear } from 'd3-scale';
import { formatWeight, formatWeightExact } from '../format/index.js';
import { svgElement, htmlElement } from '../dom/elements.js';

const BAR = 22; // thickness of one bar (viewBox units)
const PITCH = 28; // distance between bars
const LENGTH = 220; // longest bar
const FONT = 13;
const CHAR = 7.5;

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string[]} options.labels
 * @param {string[]} [options.names]           spoken names of the bars (default: labels)
 * @param {string} options.label               accessible name of the chart
 * @param {'horizontal'|'vertical'} [options.orientation]
 * @param {[number, number]} [options.domain]   value range of the bar length
 * @param {(v: number) => string} [options.format]       printed value
 * @param {(v: number) => string} [options.formatExact]  value in accessible names
 * @param {number} [options.valueChars]  room kept for the printed value, in characters (default 6)
 */
export function createBars(container, options) {
  const {
    labels, label, orientation = 'horizontal', domain = [0, 1],
    format = formatWeight, formatExact = formatWeightExact,
  } = options;
  const names = options.names ?? labels;
  const horizontal = orientation === 'horizontal';
  const longest = Math.max(...labels.map((s) => s.length)) * CHAR;
  const valueRoom = (options.valueChars ?? 6) * CHAR; // "0.734" printed past the end of the bar

  const labelRoom = horizontal ? longest + 8 : FONT + 12;
  const width = horizontal ? labelRoom + LENGTH + valueRoom : labels.length * PITCH + 8;
  const height = horizontal ? labels.length * PITCH : LENGTH / 2 + FONT * 2 + longest;
  const barLength = horizontal ? LENGTH : LENGTH / 2;

  const wrapper = htmlElement('div', { class: `bars bars-${orientation}` }, null, container);
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, role: 'list', 'aria-label': label, class: 'bars-svg' }, wrapper);

  const items = labels.map((text, i) => {
    const group = svgElement('g', { role: 'listitem', class: 'bar' }, svg);
    let track;
    let labelNode;
    if (horizontal) {
      const y = i * PITCH + (PITCH - BAR) / 2;
      labelNode = svgElement('text', { x: labelRoom - 8, y: y + BAR / 2, 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'bar-label' }, group);
      track = svgElement('rect', { x: labelRoom, y, width: barLength, height: BAR, class: 'bar-track' }, group);
    } else {
      const x = 4 + i * PITCH + (PITCH - BAR) / 2;
      const base = FONT * 1.5 + barLength;
      labelNode = svgElement('text', {
        x: x + BAR / 2, y: base + 6, transform: `rotate(45 ${x + BAR / 2} ${base + 6})`, class: 'bar-label',
      }, group);
      track = svgElement('rect', { x, y: FONT * 1.5, width: BAR, height: barLength, class: 'bar-track' }, group);
    }
    labelNode.textContent = text;
    labelNode.setAttribute('aria-hidden', 'true');
    track.setAttribute('aria-hidden', 'true');
    const fill = svgElement('rect', { class: 'bar-fill', 'aria-hidden': 'true' }, group);
    const value = svgElement('text', { class: 'bar-value', 'aria-hidden': 'true' }, group);
    return { group, track, fill, value, name: names[i] };
  });

  const toLength = scaleLinear().domain(domain).range([0, barLength]).clamp(true);

  return {
    element: wrapper,
    /**
     * Redraws the bars for new values; `highlight` marks one bar (e.g. the largest); `texts`
     * replaces the printed and spoken value of some bars (null entries keep the format), for a
     * value better told another way ("1 − 4.8×10⁻²⁸" for a weight that rounds to 1).
     */
    update(values, { highlight = null, texts = null } = {}) {
      if (values.length !== items.length) throw new Error(`bars: expected ${items.length} values, got ${values.length}`);
      items.forEach((item, i) => {
        const v = values[i];
        const length = toLength(v);
        const x = Number(item.track.getAttribute('x'));
        const y = Number(item.track.getAttribute('y'));
        if (horizontal) {
          item.fill.setAttribute('x', x);
          item.fill.setAttribute('y', y);
          item.fill.setAttribute('width', length);
          item.fill.setAttribute('height', BAR);
          item.value.setAttribute('x', x + length + 5);
          item.value.setAttribute('y', y + BAR / 2);
          item.value.setAttribute('dominant-baseline', 'central');
        } else {
          item.fill.setAttribute('x', x);
          item.fill.setAttribute('y', y + barLength - length);
          item.fill.setAttribute('width', BAR);
          item.fill.setAttribute('height', length);
          item.value.setAttribute('x', x + BAR / 2);
          item.value.setAttribute('y', y + barLength - length - 4);
          item.value.setAttribute('text-anchor', 'middle');
        }
        const text = texts?.[i] ?? null;
        item.value.textContent = text ?? format(v);
        item.group.setAttribute('aria-label', `${item.name}: ${text ?? formatExact(v)}`);
        item.group.classList.toggle('bar-highlight', i === highlight);
      });
    },
  };
}
