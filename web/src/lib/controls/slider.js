// A labelled range input with its current value printed beside it. On a log scale the
// input's integer position is mapped to a value spread evenly over decades, so that
// 0.01 … 100 gives each decade the same travel. Keyboard use comes with <input type=range>.

import { scaleLinear, scaleLog } from 'd3-scale';
import { formatSignificant, roundSignificant } from '../format/index.js';
import { fixedTextBox, htmlElement, uniqueId, setText } from '../dom/elements.js';

/**
 * Maps between slider positions 0…steps and values for a linear or log scale. Values land on
 * three significant digits (or on the step), so that a shared link reads 0.316, not 0.3162278.
 */
export function sliderScale({ min, max, scale = 'linear', steps = 200, step = null }) {
  if (scale === 'log' && !(min > 0 && max > min)) throw new Error('slider: a log scale needs 0 < min < max');
  // Linear: positions are the values themselves when a step is given (integers, say).
  const count = scale !== 'log' && step !== null ? Math.round((max - min) / step) : steps;
  const toPosition = (scale === 'log' ? scaleLog() : scaleLinear()).domain([min, max]).range([0, count]).clamp(true);
  const digits = scale !== 'log' && step !== null ? 12 : 3;
  return {
    steps: count,
    toValue: (position) => roundSignificant(toPosition.invert(position), digits),
    toPosition: (value) => Math.round(toPosition(value)),
  };
}

// The longest value printed in a box of fixed size (styles/figures.css, .fixed-text).
const MAX_FIXED_CHARS = 8;

/**
 * The most characters `format` prints for the slider's positions (every one of them, or 1001
 * spread evenly, both ends included, on a slider with more).
 */
function longestPrinted(scale, format) {
  const stride = Math.max(1, Math.ceil(scale.steps / 1000));
  const printed = (position) => format(scale.toValue(position)).length;
  let longest = printed(scale.steps);
  for (let position = 0; position < scale.steps; position += stride) longest = Math.max(longest, printed(position));
  return longest;
}

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string} options.label          visible label, also the accessible name
 * @param {string} [options.hint]         a short description read after the name
 * @param {number} options.min
 * @param {number} options.max
 * @param {number} options.value
 * @param {'linear'|'log'} [options.scale]
 * @param {number} [options.step]         linear scale only: value step (e.g. 1 for integers)
 * @param {number} [options.steps]        number of positions when no step is given
 * @param {(v: number) => string} [options.format]
 * @param {(v: number) => void} [options.onInput]
 */
export function createSlider(container, options) {
  const { label, hint = null, value, format = (v) => formatSignificant(v, 3), onInput = () => {} } = options;
  const scale = sliderScale(options);
  const id = uniqueId('slider');
  const hintId = hint ? `${id}-hint` : null;

  const element = htmlElement('div', { class: 'control control-slider' }, null, container);
  htmlElement('label', { for: id, class: 'control-label' }, label, element);
  // The input and its printed value each sit in a box of fixed size (styles/figures.css), so
  // that a step, which moves the thumb and rewrites the value, lays out those two boxes and
  // not the page around them. The value's box holds the longest value the slider can print
  // (up to MAX_FIXED_CHARS).
  const track = htmlElement('div', { class: 'control-track' }, null, element);
  const input = htmlElement('input', {
    type: 'range', id, min: 0, max: scale.steps, step: 1, 'aria-describedby': hintId,
  }, null, track);
  const valueBox = htmlElement('output', { for: id, class: 'control-value', 'aria-hidden': 'true' }, null, element);
  // A longer value ("1024 (k = 10)") prints at its own width: a box as wide as its longest
  // would take a phone's track room and run past the figure's edge at 375 px.
  const chars = longestPrinted(scale, format);
  const output = chars <= MAX_FIXED_CHARS ? fixedTextBox(valueBox, chars) : htmlElement('span', {}, null, valueBox);
  if (hint) htmlElement('p', { id: hintId, class: 'control-hint' }, hint, element);

  let current = value;
  function show(v) {
    const text = format(v);
    setText(output, text);
    // Screen readers announce this instead of the raw position number.
    if (input.getAttribute('aria-valuetext') !== text) input.setAttribute('aria-valuetext', text);
  }

  input.addEventListener('input', () => {
    current = scale.toValue(Number(input.value));
    show(current);
    onInput(current);
  });

  const slider = {
    element,
    input,
    get value() {
      return current;
    },
    /** Moves the slider to a value from elsewhere (state, URL) without calling onInput. */
    set(v) {
      current = v;
      const position = String(scale.toPosition(v));
      if (input.value !== position) input.value = position;
      show(v);
    },
  };
  slider.set(value);
  return slider;
}
