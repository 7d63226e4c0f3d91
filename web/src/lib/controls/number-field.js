// Number fields: reading what a learner typed (the page's predictions, answers and typed
// components all go through here, so "0,5", "−1" and "1e-3" read the same everywhere), and a
// labelled text field for a whole number with a hint and a place for its error message.

import { htmlElement, uniqueId } from '../dom/elements.js';

// Decimal notation only: digits, one decimal point, an optional exponent. Number() alone would
// also read "0x10" as 16, "0b11" and "0o7", and "Infinity".
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Parses a typed number; accepts a decimal comma and a real minus sign. Null if unreadable. */
export function parseNumber(text) {
  const cleaned = String(text).trim().replace(',', '.').replace('\u2212', '-');
  if (cleaned === '' || !DECIMAL.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** True when something was typed but it is not a finite decimal number ("abc", "1e400", "½"). */
export function isUnreadable(text) {
  return String(text).trim() !== '' && parseNumber(text) === null;
}

/** What a grader says of a field it cannot read, and the attribute that tells assistive tech. */
export const UNREADABLE = 'not a number I can read';
export function markUnreadable(input, unreadable) {
  if (unreadable) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/** A typed count: spaces, commas and underscores between digits are allowed; NaN if unreadable. */
export function parseCount(text) {
  const cleaned = String(text).replace(/[\s,_\u2009\u202f]/g, '');
  return cleaned === '' || !DECIMAL.test(cleaned) ? Number.NaN : Number(cleaned);
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
