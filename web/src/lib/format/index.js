// Number formatting for everything the page prints. Kept in one place so that a
// readout, an aria-label and a tooltip never disagree about how a value looks.

const MINUS = '\u2212'; // a real minus sign reads better than a hyphen next to digits

function withMinus(text) {
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

/** Fixed number of decimals: formatFixed(0.73412, 3) → "0.734". */
export function formatFixed(value, decimals = 3) {
  if (!Number.isFinite(value)) return String(value);
  // Avoid "-0.000" for tiny negatives produced by rounding.
  const text = value.toFixed(decimals);
  return withMinus(Number(text) === 0 ? (0).toFixed(decimals) : text);
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
  if (Number.isFinite(value) && value !== 0 && Math.abs(value) < 5e-5) {
    const [mantissa, exponent] = value.toExponential(2).split('e');
    return withMinus(`${mantissa}e${withMinus(String(Number(exponent)))}`);
  }
  return formatFixed(value, 4);
}

/**
 * At most `digits` significant digits with trailing zeros dropped, for knob values
 * spanning decades: 0.01, 0.316, 1, 31.6, 100.
 */
export function formatSignificant(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  return withMinus(String(Number(value.toPrecision(digits))));
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
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.round(Math.abs(value)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return value < 0 ? MINUS + digits : digits;
}

/** A token shown as a quoted word: “cat”. */
export function quoteToken(token) {
  return `\u201c${token}\u201d`;
}

/** Large counts as 29.5 M, 462 M, 1.93 T; small ones in full. */
export function formatAmount(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value < 1e4) return formatCount(value);
  const units = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  const [factor, unit] = units.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}

/** Bytes in decimal units, as disk and memory sizes are usually quoted: 1.84 MB, 10.1 GB. */
export function formatBytes(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value < 1000) return `${formatCount(value)}\u00a0B`;
  const units = [[1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  const [factor, unit] = units.find(([f]) => value >= f);
  return `${formatSignificant(value / factor, 3)}\u00a0${unit}`;
}
