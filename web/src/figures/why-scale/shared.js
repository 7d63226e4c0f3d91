// What both parts of the "Why divide by √d_k" figure write and send to the core.

export const SUBSCRIPT_K = 'd\u2096';
export const SQRT = '\u221a';

/** A one-row matrix of the values, as the core takes it. */
export function oneRow(values) {
  return { rows: 1, cols: values.length, data: Float64Array.from(values) };
}
