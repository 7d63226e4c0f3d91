// Number fields: reading what a learner typed (the page's predictions, answers and typed
// components all go through here, so "0,5", "−1" and "1e-3" read the same everywhere), and a
// labelled text field for a whole number with a hint and a place for its error message.

import { htmlElement, uniqueId } from '../dom/elements.js';

/** Parses a typed number; accepts a decimal comma and a real minus sign. Null if unreadable. */
export function parseNumber(text) {
  const cleaned = String(text).trim().replace(',', '.').replace('\u2212', '-');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** A typed count: spaces, commas and underscores between digits are allowed; NaN if unreadable. */
export function parseCount(text) {
  const cleaned = String(text).replace(/[\s,_\u2009\u202f]/g, '');
  return cleaned === '' ? Number.NaN : Number(cleaned);
}

/**
 * A labelled text field for a whole number, with a hint and a place for its error message.
 * Returns { element, input, showError(message) } ('' clears the error).
 */
export function createNumberField(parent, { label, hint, onInput }) {
  const id = uniqueId('number');
  const element = htmlElement('div', { class: 'control control-number' }, null, parent);
  htmlElement('label', { for: id, class: 'control-label' }, label, element);
  const input = htmlElement('input', {
    type: 'text', id, inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': `${id}-hint ${id}-error`,
  }, null, element);
  htmlElement('p', { id: `${id}-hint`, class: 'control-hint' }, hint, element);
  const error = htmlElement('p', { id: `${id}-error`, class: 'field-error', role: 'alert', hidden: '' }, null, element);
  input.addEventListener('input', () => onInput(input.value));
  return {
    element,
    input,
    showError(message) {
      error.textContent = message;
      error.hidden = !message;
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
}
