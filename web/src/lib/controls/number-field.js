// Number fields: reading what a learner typed (the page's predictions, answers and typed
// components all go through here, so "0,5", "−1" and "1e-3" read the same everywhere), and a
// labelled text field for a whole number with a hint and a place for its error message.

import { htmlElement, uniqueId } from '../dom/elements.js';

// One rule for every number a reader types on the page (predictions, answers, components,
// counts), so the same text means the same thing in every field:
//   - decimal notation only: digits, one decimal mark, an optional exponent ("1e-3"); Number()
//     alone would also read "0x10" as 16, "0b11", "0o7" and "Infinity";
//   - the decimal mark is a point or a comma: "1.5" and "1,5" are both one and a half;
//   - a real minus sign (U+2212) reads as "-";
//   - thousands separators are refused, not guessed at: "1,000,000", "1.000,5" or "1 000" get
//     a message. (A single comma is always the decimal mark, so a count field, whose numbers
//     are whole, refuses any comma: "1,000" there would otherwise be one.)
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const SPACE_BETWEEN_DIGITS = /\d[\s_'\u2009\u202f\u00a0]+\d/;

// Why a text was refused, to follow "“…” is": said beside the field.
export const SEPARATORS = 'written with thousands separators, which are not read here (type 1000, not 1,000 or 1\u00a0000)';
const COMMA_IN_COUNT = 'not a whole number: a comma is a decimal mark here (type 1000, not 1,000)';

/**
 * Reads a typed number by the page's one rule. Returns { value, problem }: value is the number
 * (null when there is none), problem '' (readable), 'empty', 'separators' or 'unreadable'.
 */
export function readNumber(text) {
  const cleaned = String(text).trim().replaceAll('\u2212', '-');
  if (cleaned === '') return { value: null, problem: 'empty' };
  if (SPACE_BETWEEN_DIGITS.test(cleaned) || (cleaned.match(/[.,]/g) ?? []).length > 1) {
    return { value: null, problem: 'separators' };
  }
  const point = cleaned.replace(',', '.');
  if (!DECIMAL.test(point)) return { value: null, problem: 'unreadable' };
  const value = Number(point);
  return Number.isFinite(value) ? { value, problem: '' } : { value: null, problem: 'unreadable' };
}

/** Parses a typed number (see readNumber); null if empty or unreadable. */
export function parseNumber(text) {
  return readNumber(text).value;
}

/** True when something was typed but it is not a finite decimal number ("abc", "1e400", "½", "1,000,000"). */
export function isUnreadable(text) {
  const { problem } = readNumber(text);
  return problem === 'unreadable' || problem === 'separators';
}

/** What a grader says of a field it cannot read, and the attribute that tells assistive tech. */
export const UNREADABLE = 'not a number I can read';
export function markUnreadable(input, unreadable) {
  if (unreadable) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/**
 * A typed count, by the same rule, except that a comma is refused (a count has no decimals).
 * Returns { value, problem }: value NaN when unreadable (the core then names the field),
 * problem '' or a message to show (SEPARATORS, COMMA_IN_COUNT).
 */
export function readCount(text) {
  const cleaned = String(text).trim();
  const read = readNumber(cleaned);
  if (read.problem === 'separators') return { value: Number.NaN, problem: SEPARATORS };
  if (cleaned.includes(',')) return { value: Number.NaN, problem: COMMA_IN_COUNT };
  return { value: read.value ?? Number.NaN, problem: '' };
}

/** A typed count as a number; NaN if it is not one (see readCount). */
export function parseCount(text) {
  return readCount(text).value;
}

/**
 * A labelled text field for a whole number, with a hint and a place for its error message.
 * onInput(text, { committed }) runs on every keystroke (committed false) and when the field is
 * committed (true). Returns { element, input, showError(message) } ('' clears the error).
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
  input.addEventListener('input', () => onInput(input.value, { committed: false }));
  // Enter, or leaving a changed field, commits what was typed: a message about it can then be
  // shown at once, where one while the reader is still typing should wait for a pause.
  input.addEventListener('change', () => onInput(input.value, { committed: true }));
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
