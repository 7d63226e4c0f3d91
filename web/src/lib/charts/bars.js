// A labelled bar chart of one vector (e.g. the weights of one query row), with every
// value printed next to its bar. Horizontal bars read best on narrow screens. The chart is
// drawn in CSS px for the width it gets (see fit.js): the bars take the width the labels and
// printed values leave, so the text keeps its size on a phone and grows with the reader's
// text size. update() writes only the attributes and texts whose values changed.

import { scaleLinear } from 'd3-scale';
import { formatWeight, formatWeightExact } from '../format/index.js';
import { htmlElement, setAttributes, setText, svgElement } from '../dom/elements.js';
import { DEFAULT_REM, fitChart } from './fit.js';

const MAX_WIDTH_REM = 26;
const MAX_LENGTH = 220; // longest bar, px, on a wide screen
const MIN_LENGTH = 60;
const CHAR_EM = 0.62; // a generous character width, as a share of the font size
const VERTICAL = { BAR: 22, PITCH: 28, LENGTH: 110 }; // the vertical layout keeps fixed sizes

/**
 * Where the bars go, in px, for `width` px and the text's sizes: { labelRoom, barLength, pitch,
 * bar, labelFont, width, height }. Horizontal bars fit the width; vertical ones have a fixed size.
 */
function geometryFor(width, { labelFont, valueFont, labelWidth, rem }, { horizontal, count, valueChars }) {
  if (!horizontal) {
    const { BAR, PITCH, LENGTH } = VERTICAL;
    return {
      labelRoom: labelFont + 12, barLength: LENGTH, pitch: PITCH, bar: BAR, labelFont,
      width: count * PITCH + 8, height: LENGTH + labelFont * 2 + labelWidth,
    };
  }
  const pitch = Math.max(28, Math.round(labelFont * 2.15));
  const bar = pitch - 6;
  const labelRoom = Math.ceil(labelWidth + 8);
  const valueRoom = Math.ceil(valueChars * CHAR_EM * valueFont + 5);
  const drawn = Math.min(width, MAX_WIDTH_REM * rem);
  const barLength = Math.floor(Math.max(MIN_LENGTH, Math.min((MAX_LENGTH / 16) * rem, drawn - labelRoom - valueRoom)));
  return { labelRoom, barLength, pitch, bar, labelFont, width: labelRoom + barLength + valueRoom, height: count * pitch };
}

/** One group per bar in `svg`: its label, track, fill and printed value, with what each was last set to. */
function createBarItems(svg, labels, names) {
  return labels.map((text, i) => {
    const group = svgElement('g', { role: 'listitem', class: 'bar' }, svg);
    const labelNode = svgElement('text', { class: 'bar-label', 'aria-hidden': 'true' }, group);
    setText(labelNode, text);
    const track = svgElement('rect', { class: 'bar-track', 'aria-hidden': 'true' }, group);
    const fill = svgElement('rect', { class: 'bar-fill', 'aria-hidden': 'true' }, group);
    const value = svgElement('text', { class: 'bar-value', 'aria-hidden': 'true' }, group);
    return {
      group, labelNode, track, fill, value, name: names[i], index: i,
      was: { text: null, name: null, highlight: false },
    };
  });
}

/** Sizes the SVG for `geometry` and places every bar's label and track. */
function placeBars(svg, items, geometry, horizontal) {
  const { labelRoom, barLength, pitch, bar, labelFont } = geometry;
  svg.setAttribute('viewBox', `0 0 ${geometry.width} ${geometry.height}`);
  svg.setAttribute('width', geometry.width);
  svg.setAttribute('height', geometry.height);
  items.forEach(({ labelNode, track }, i) => {
    if (horizontal) {
      const y = i * pitch + (pitch - bar) / 2;
      setAttributes(labelNode, { x: labelRoom - 8, y: y + bar / 2, 'text-anchor': 'end', 'dominant-baseline': 'central' });
      setAttributes(track, { x: labelRoom, y, width: barLength, height: bar });
    } else {
      const x = 4 + i * pitch + (pitch - bar) / 2;
      const base = labelFont * 1.5 + barLength;
      setAttributes(labelNode, { x: x + bar / 2, y: base + 6, transform: `rotate(45 ${x + bar / 2} ${base + 6})` });
      setAttributes(track, { x, y: labelFont * 1.5, width: bar, height: barLength });
    }
  });
}

/** One bar's fill, printed value, spoken name and highlight, written only where they changed. */
function drawBar(item, { length, printed, name, highlighted }, { barLength, bar }, horizontal) {
  const x = Number(item.track.getAttribute('x')); // attributes, not layout: nothing is measured
  const y = Number(item.track.getAttribute('y'));
  if (horizontal) {
    setAttributes(item.fill, { x, y, width: length, height: bar });
    setAttributes(item.value, { x: x + length + 5, y: y + bar / 2, 'dominant-baseline': 'central' });
  } else {
    setAttributes(item.fill, { x, y: y + barLength - length, width: bar, height: length });
    setAttributes(item.value, { x: x + bar / 2, y: y + barLength - length - 4, 'text-anchor': 'middle' });
  }
  if (item.was.text !== printed) {
    setText(item.value, printed);
    item.was.text = printed;
  }
  if (item.was.name !== name) {
    item.group.setAttribute('aria-label', name);
    item.was.name = name;
  }
  if (item.was.highlight !== highlighted) {
    item.group.classList.toggle('bar-highlight', highlighted);
    item.was.highlight = highlighted;
  }
}

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
  const horizontal = orientation === 'horizontal';
  const valueChars = options.valueChars ?? 6; // "0.734" printed past the end of the bar

  const wrapper = htmlElement('div', { class: `bars bars-${orientation}` }, null, container);
  const svg = svgElement('svg', { role: 'list', 'aria-label': label, class: 'bars-svg' }, wrapper);
  const items = createBarItems(svg, labels, options.names ?? labels);

  // ---- Layout, in px ---------------------------------------------------------------------
  let geometry = null; // { labelRoom, barLength, pitch, bar, width, height }
  let toLength = null;
  let lastUpdate = null;

  function layOut(width, text) {
    geometry = geometryFor(width, text, { horizontal, count: labels.length, valueChars });
    placeBars(svg, items, geometry, horizontal);
    toLength = scaleLinear().domain(domain).range([0, geometry.barLength]).clamp(true);
  }

  const estimate = (rem) => ({
    rem,
    labelFont: (13 / 16) * rem,
    valueFont: (12.5 / 16) * rem,
    labelWidth: Math.max(...labels.map((s) => s.length)) * CHAR_EM * (13 / 16) * rem,
  });
  const start = fitChart(wrapper, {
    fallback: { width: Infinity, rem: DEFAULT_REM },
    measure: ({ width, rem }) => ({
      width,
      text: {
        rem,
        labelFont: parseFloat(getComputedStyle(items[0].labelNode).fontSize) || estimate(rem).labelFont,
        valueFont: parseFloat(getComputedStyle(items[0].value).fontSize) || estimate(rem).valueFont,
        labelWidth: Math.max(...items.map((item) => item.labelNode.getComputedTextLength())),
      },
    }),
    apply: ({ width, text }) => {
      layOut(width, text);
      if (lastUpdate) draw(...lastUpdate);
    },
  });
  layOut(start.width, estimate(start.rem));

  function draw(values, { highlight = null, texts = null } = {}) {
    items.forEach((item, i) => {
      const v = values[i];
      const text = texts?.[i] ?? null;
      drawBar(item, {
        length: toLength(v),
        printed: text ?? format(v),
        name: `${item.name}: ${text ?? formatExact(v)}`,
        highlighted: i === highlight,
      }, geometry, horizontal);
    });
  }

  return {
    element: wrapper,
    /**
     * Redraws the bars for new values; `highlight` marks one bar (e.g. the largest); `texts`
     * replaces the printed and spoken value of some bars (null entries keep the format), for a
     * value better told another way ("1 − 4.8×10⁻²⁸" for a weight that rounds to 1).
     */
    update(values, extras = {}) {
      if (values.length !== items.length) throw new Error(`bars: expected ${items.length} values, got ${values.length}`);
      lastUpdate = [Array.from(values), extras];
      draw(values, extras);
    },
  };
}
