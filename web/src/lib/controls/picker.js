// A labelled <select>: the simplest accessible way to choose one of a few named items.

import { htmlElement, uniqueId } from '../dom/elements.js';

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string} options.label
 * @param {{ value: string|number, text: string }[]} options.options
 * @param {string|number} options.value
 * @param {string} [options.hint]
 * @param {(value: string) => void} [options.onChange]  receives the option's value as a string
 */
export function createPicker(container, { label, options, value, hint = null, onChange = () => {} }) {
  const id = uniqueId('picker');
  const hintId = hint ? `${id}-hint` : null;
  const element = htmlElement('div', { class: 'control control-picker' }, null, container);
  htmlElement('label', { for: id, class: 'control-label' }, label, element);
  const select = htmlElement('select', { id, 'aria-describedby': hintId }, null, element);
  for (const option of options) {
    htmlElement('option', { value: option.value }, option.text, select);
  }
  if (hint) htmlElement('p', { id: hintId, class: 'control-hint' }, hint, element);
  select.addEventListener('change', () => onChange(select.value));

  const picker = {
    element,
    select,
    get value() {
      return select.value;
    },
    /** Selects a value from elsewhere without calling onChange. */
    set(v) {
      // Only when it moved: setting a select's value restyles it even when it is the same.
      if (select.value !== String(v)) select.value = String(v);
    },
  };
  picker.set(value);
  return picker;
}
