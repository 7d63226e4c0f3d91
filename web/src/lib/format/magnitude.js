// Numbers that span many decades, printed with the digits the computation has and no more:
// "0.197", "3.35×10⁻⁴", "1.55×10¹³". A value known only through its logarithm (a ratio of
// two factors that under- or overflow float64) is printed from the logarithm, so that
// 4.27×10²⁶ never turns into "Infinity×" or a 27-digit run whose last 24 digits are noise.

const MINUS = '\u2212';
const SUPERSCRIPTS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';
/** What a readout shows for a value that is not a finite number: never "Infinity" or "NaN". */
export const NOT_FINITE = '\u2014';

function superscript(exponent) {
  const digits = String(Math.abs(exponent)).replace(/\d/g, (d) => SUPERSCRIPTS[d]);
  return exponent < 0 ? `\u207b${digits}` : digits;
}

/** "1.55×10¹³" from a mantissa text and an exponent. */
function powerOfTen(mantissa, exponent) {
  return `${mantissa}\u00d710${superscript(exponent)}`;
}

/** Significant digits, trailing zeros kept off: 0.197, 587, 4.5. */
function plain(value, digits) {
  const text = String(Number(value.toPrecision(digits)));
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

/**
 * A positive magnitude from its base-10 logarithm, with `digits` significant digits: plain
 * between 10^lowest and 10^highest (exclusive), with a power of ten outside.
 */
function formatFromLog10(log10, { digits = 3, lowest = -3, highest = 4 } = {}) {
  if (!Number.isFinite(log10)) return NOT_FINITE;
  let exponent = Math.floor(log10);
  let mantissa = Number((10 ** (log10 - exponent)).toPrecision(digits));
  if (mantissa >= 10) { // 9.996 rounds up to 10.0: carry into the exponent
    mantissa /= 10;
    exponent += 1;
  }
  if (exponent >= lowest && exponent < highest) return plain(10 ** log10, digits);
  return powerOfTen(mantissa.toFixed(digits - 1), exponent);
}

/** A positive magnitude from its natural logarithm (what the core's log-space functions return). */
export function formatFromLog(ln, options) {
  return formatFromLog10(ln / Math.LN10, options);
}

/** Any finite number with `digits` significant digits and a power of ten when far from 1. */
export function formatMagnitude(value, options) {
  if (!Number.isFinite(value)) return NOT_FINITE;
  if (value === 0) return '0';
  const text = formatFromLog10(Math.log10(Math.abs(value)), options);
  return value < 0 ? MINUS + text : text;
}
