// A labelled range input with its current value printed beside it. On a log scale the
// input's integer position is mapped to a value spread evenly over decades, so that
// 0.01 … 100 gives each decade the same travel. Keyboard use comes with <input type=range>.

import { formatSignificant, roundSignificant } from '../format/index.js';
import { htmlElement, uniqueId } from '../dom/elements.js';

/** Maps between slider positions 0…steps and values for a linear or log scale. */
export function sliderScale({ min, max, scale = 'linear', steps = 200, step = null }) {
  if (scale === 'log') {
    if (!(min > 0 && max > min)) throw new Error('slider: a log scale needs 0 < min < max');
    const span = Math.log(max / min);
    return {
      steps,
      toValue: (position) => roundSignificant(min * Math.exp((span * position) / steps), 3),
      toPosition: (value) => Math.round((steps * Math.log(Math.min(max, Math.max(min, value)) / min)) / span),
    };
  }
  // Linear: positions are the values themselves when a step is given (integers, say).
  if (step !== null) {
    const count = Math.round((max - min) / step);
    return {
      steps: count,
      toValue: (position) => roundSignificant(min + position * step, 12),
      toPosition: (value) => Math.round((Math.min(max, Math.max(min, value)) - min) / step),
    };
  }
  return {
    steps,
    toValue: (position) => roundSignificant(min + ((max - min) * position) / steps, 3),
    toPosition: (value) => Math.round(((Math.min(max, Math.max(min, value)) - min) / (max - min)) * steps),
  };
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
  const input = htmlElement('input', {
    type: 'range', id, min: 0, max: scale.steps, step: 1, 'aria-describedby': hintId,
  }, null, element);
  const output = htmlElement('output', { for: id, class: 'control-value', 'aria-hidden': 'true' }, null, element);
  if (hint) htmlElement('p', { id: hintId, class: 'control-hint' }, hint, element);

  let current = value;
  function show(v) {
    const text = format(v);
    output.textContent = text;
    // Screen readers announce this instead of the raw position number.
    input.setAttribute('aria-valuetext', text);
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
      input.value = String(scale.toPosition(v));
      show(v);
    },
  };
  slider.set(value);
  return slider;
}
