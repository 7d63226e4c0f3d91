// Number formatting for everything the page prints, over d3-format with the page's locale
// (a real minus sign, thin-space thousands). Kept in one place so that a readout, an
// aria-label and a tooltip never disagree about how a value looks. The lesson-specific
// forms (weights, nats, counts in M and G, powers of ten) are built on the same few calls.

import { formatLocale } from 'd3-format';

import { NOT_FINITE } from './magnitude.js';

const MINUS = '\u2212'; // a real minus sign reads better than a hyphen next to digits
const SUPERSCRIPT_DIGITS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';

const locale = formatLocale({ decimal: '.', thousands: '\u2009', grouping: [3], currency: ['', ''], minus: MINUS });
const formatters = new Map();
/** d3-format's formatter for a specifier, made once. */
function formatter(specifier) {
  if (!formatters.has(specifier)) formatters.set(specifier, locale.format(specifier));
  return formatters.get(specifier);
}

/** An exponent in superscript digits: -7 → "⁻⁷". */
export function superscript(exponent) {
  return String(exponent).replace('-', '\u207b').replace('+', '').replace(/\d/g, (d) => SUPERSCRIPT_DIGITS[d]);
}

/** A value in scientific notation with `decimals` decimals: "3.10e−7" (or, with `times`, "3.1×10⁻⁷"). */
function formatScientific(value, decimals, { times = false } = {}) {
  const [mantissa, exponent] = formatter(`.${decimals}e`)(value).split('e');
  return times ? `${mantissa}\u00d710${superscript(Number(exponent))}` : `${mantissa}e${formatter('d')(Number(exponent))}`;
}

/** Fixed number of decimals: formatFixed(0.73412, 3) → "0.734"; never "−0.000". */
export function formatFixed(value, decimals = 3) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  return formatter(`.${decimals}f`)(value);
}

/** A probability-like weight in [0, 1], the form used in heat maps and bars. */
export function formatWeight(value) {
  return formatFixed(value, 3);
}

/**
 * A weight with more digits, for accessible names and tooltips where space is free.
 * Tiny but non-zero weights switch to powers of ten, so "0.0000" never hides a 3e−7.
 */
export function formatWeightExact(value) {
  if (Number.isFinite(value) && value !== 0 && Math.abs(value) < 5e-5) return formatScientific(value, 2);
  return formatFixed(value, 4);
}

/**
 * At most `digits` significant digits with trailing zeros dropped, for knob values
 * spanning decades: 0.01, 0.316, 1, 31.6, 100.
 */
export function formatSignificant(value, digits = 3) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  if (value === 0) return '0';
  return formatter(`.${digits}~r`)(value);
}

/** Rounds to `digits` significant digits, so slider positions land on tidy values. */
export function roundSignificant(value, digits = 3) {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}

/** Entropy in nats. */
export function formatNats(value) {
  return `${formatFixed(value, 3)} nats`;
}

/** Whole numbers with thin-space thousands separators: 1 048 576. */
export function formatCount(value) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  return formatter(',.0f')(value);
}

/** A power of ten as 10 with a superscript exponent: 1000 → "10³" (the default log10 tick label). */
export function formatPowerOfTen(value) {
  return `10${superscript(Math.round(Math.log10(value)))}`;
}

/** A token shown as a quoted word: “cat”. */
export function quoteToken(token) {
  return `\u201c${token}\u201d`;
}

const AMOUNT_UNITS = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
const BYTE_UNITS = [[1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];

/** Large counts as 29.5 M, 462 M, 1.93 T; small ones in full. */
export function formatAmount(value) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  if (value < 1e4) return formatCount(value);
  const [factor, unit] = AMOUNT_UNITS.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}

const DURATION_UNITS = [[1, 's'], [1e-3, 'ms'], [1e-6, '\u00b5s'], [1e-9, 'ns']];

/**
 * A measured time in seconds with `digits` significant digits (default 2, what a timing
 * holds) in s, ms, µs or ns: 0.0034 → "3.4 ms", 2.5e-6 → "2.5 µs". Not finite or not
 * positive: "—" (a timing is never 0 or negative).
 */
export function formatDuration(seconds, digits = 2) {
  if (!Number.isFinite(seconds) || seconds <= 0) return NOT_FINITE;
  const rounded = roundSignificant(seconds, digits); // 0.000999 → 0.001 reads "1 ms", not "1000 µs"
  const [factor, unit] = DURATION_UNITS.find(([f]) => rounded >= f) ?? DURATION_UNITS[DURATION_UNITS.length - 1];
  return `${formatSignificant(rounded / factor, digits)}\u00a0${unit}`;
}

/** Bytes in decimal units, as disk and memory sizes are usually quoted: 1.84 MB, 10.1 GB. */
export function formatBytes(value) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  if (value < 1000) return `${formatCount(value)}\u00a0B`;
  const [factor, unit] = BYTE_UNITS.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}
