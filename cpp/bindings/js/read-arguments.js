// Reading and checking the JS API's arguments: every argument is read once (a getter that
// throws becomes an Error naming the argument), and checked before the core is touched: types,
// real lengths (the typed array's own length, whatever its `length` property says), shapes,
// options from a closed set, mask entries, counts, and the work budget (LIMITS). A bad argument
// throws an Error naming the argument, what was expected and what came.

/**
 * The work budget, the same numbers as cpp/core/limits.hpp (checked when the core loads).
 * A call whose matrices or work would pass them is refused before it starts.
 */
export const LIMITS = Object.freeze({
  /** Rows or columns of any one matrix. */
  maxDimension: 1_000_000,
  /** Entries of any one matrix read or made: 2^24, 128 MiB in float64 (n = m = 4096 direct). */
  maxEntries: 2 ** 24,
  /** Entries of all the matrices one call returns together: 4 · 2^24, 512 MiB in float64. */
  maxResultEntries: 4 * 2 ** 24,
  /**
   * Multiply-adds of one float64 call: 2^31, so that the slowest accepted call of each kind takes
   * about a second (direct attention and multi-head also count PAIR_WORK for each pair they
   * return, additive scores and training steps their own weights; see cpp/core/limits.hpp).
   */
  maxMultiplyAdds: 2 ** 31,
  /** Multiply-adds of one float32 call (attention, streamingAttention): 2^33, about a second. */
  maxMultiplyAddsFloat32: 2 ** 33,
  /**
   * What each pair (i, j) of the direct form or of one head counts beside its dot products: its
   * score, scaled score and weight are formed, exponentiated and copied out (kPairWork).
   */
  pairWork: 384,
  /** Random draws plus softmax entries of one width experiment: 5·10^7, about a second at most. */
  maxExperimentWork: 50_000_000,
  /** The largest count a JavaScript number holds exactly: 2^53. */
  maxExactCount: 2 ** 53,
});
// The order in which the core's al_limit() reports them.
export const CORE_LIMITS = ['maxDimension', 'maxEntries', 'maxMultiplyAdds', 'maxExperimentWork', 'maxExactCount', 'maxMultiplyAddsFloat32', 'pairWork'];

import { kindOf, realLength } from './built-ins.js';

// ---- describing what came, for messages --------------------------------------------------

export function describe(value) {
  try {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'undefined': return 'nothing (undefined)';
      case 'number': return String(value);
      case 'string': return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}\u2026` : value)}`;
      case 'boolean': return String(value);
      case 'bigint': return `the BigInt ${value}n`;
      case 'symbol': return 'a symbol';
      case 'function': return 'a function';
      default: break;
    }
    if (Array.isArray(value)) return `an array of ${value.length} entries`;
    const kind = kindOf(value);
    if (kind) return `a ${kind} of ${realLength(value)} entries`;
    return 'an object';
  } catch {
    return 'an unreadable value';
  }
}

export function messageOf(error) {
  if (error instanceof Error) return error.message;
  return describe(error);
}

// Reads owner.key, so that a getter that throws becomes an Error naming the argument.
export function read(object, key, owner) {
  try {
    return object[key];
  } catch (error) {
    throw new Error(`${owner}.${key} could not be read: ${messageOf(error)}`, { cause: error });
  }
}

// ---- the checks --------------------------------------------------------------------------

export const EXACT = LIMITS.maxExactCount;
// An option left out takes its default; null is a value, and is checked like any other.
export const given = (value, fallback) => (value === undefined ? fallback : value);

/** A whole number in [min, max]; the message gives the range, or the limit that was passed. */
export function wholeNumber(name, value, min, max, limitNote = '') {
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  if (typeof value !== 'number') throw new Error(`${name} must be a number, got ${describe(value)}`);
  const range = max >= EXACT ? `>= ${min}` : `from ${min} to ${max}`;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ${range}, got ${describe(value)}`);
  if (value > max) {
    throw new Error(max >= EXACT
      ? `${name} must be at most 2^53 = ${max}, the largest count a JavaScript number holds exactly, got ${value}`
      : `${name} must be a whole number ${range}${limitNote}, got ${value}`);
  }
  return value;
}

const DIMENSION_NOTE = ' (lab.limits.maxDimension)';
export const dimension = (name, value, min = 0) => wholeNumber(name, value, min, LIMITS.maxDimension, DIMENSION_NOTE);

/** Refuses a call whose size passes a limit, with the size it asked for and the limit. */
export function budget(fn, what, amount, limitName) {
  const limit = LIMITS[limitName];
  if (amount > limit) {
    // `what` may be a function, so that its text is only built for a message.
    const text = typeof what === 'function' ? what() : what;
    throw new Error(`${fn}: ${text} would be ${amount}, more than the limit of ${limit} (lab.limits.${limitName})`);
  }
}

/** What each pair of the direct form counts beside its dot products (LIMITS.pairWork). */
export const PAIR_WORK = LIMITS.pairWork;

/** Refuses a call of `amount` multiply-adds past the limit of its precision ('float64' or 'float32'). */
export function multiplyAdds(fn, amount, precision) {
  budget(fn, 'the multiply-adds', amount, precision === 'float32' ? 'maxMultiplyAddsFloat32' : 'maxMultiplyAdds');
}

export function entriesWithin(fn, what, rows, cols) {
  budget(fn, () => `${what} (${rows}x${cols}) in entries`, rows * cols, 'maxEntries');
}

// The option names and choices of the hot calls, made once.
export const ATTENTION_OPTIONS = Object.freeze(['tau', 'scale', 'mask', 'axis', 'results', 'into']);
export const RESULT_SETS = Object.freeze(['all', 'output']);
export const AXES = Object.freeze(['keys', 'queries']);
export const MULTI_HEAD_OPTIONS = Object.freeze(['tau', 'mask', 'scaleBy']);
export const HEAD_SCALES = Object.freeze(['head', 'model']);
/** Options from a closed set: an unknown name is refused, naming the ones there are. */
const NO_OPTIONS = Object.freeze({});
export function readOptions(fn, options, allowed, what = 'options', example = '{ tau: 2 }') {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new Error(`${fn}: ${what} must be an object such as ${example}, got ${describe(options)}`);
  }
  let keys;
  try {
    keys = Object.keys(options);
  } catch (error) {
    throw new Error(`${fn}: ${what} could not be read: ${messageOf(error)}`, { cause: error });
  }
  const values = {};
  for (const key of keys) {
    if (!allowed.includes(key)) {
      const why = fn === 'crossMultiHead' && key === 'mask' ? ' (cross-attention takes no mask)' : '';
      throw new Error(`${fn}: unknown option ${JSON.stringify(key)}${why}; the options are ${allowed.join(', ')}`);
    }
    values[key] = read(options, key, what);
  }
  return values;
}

export function temperature(value) {
  if (value === undefined) return 1;
  if (typeof value !== 'number') throw new Error(`tau: temperature must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`tau: temperature must be positive and finite, got ${value}`);
  return value;
}

export function choice(name, value, choices, fallback) {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new Error(`${name} must be ${choices.map((c) => `'${c}'`).join(' or ')}, got ${describe(value)}`);
  }
  return value;
}

export function positiveRate(value) {
  if (typeof value !== 'number') throw new Error(`learning rate must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) throw new Error(`learning rate must be positive and finite, got ${value}`);
  return value;
}

export function scaleOption(value) {
  const scale = value === undefined ? 0 : value;
  if (typeof scale !== 'number' || !(scale >= 0 && scale < Infinity)) {
    throw new Error(`options.scale must be 0 (meaning √d_k) or a positive finite number, got ${describe(scale)}`);
  }
  return scale;
}
