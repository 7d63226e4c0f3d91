// The benchmark's own inputs and yardsticks (scripts/bench.mjs): reproducible random matrices,
// attention as the plain JavaScript loops a web developer would write, and the check that every
// implementation's output agrees with the float64 core before it is timed.

export function randomMatrix(rows, cols, seed, Type = Float64Array) {
  let x = seed;
  const data = new Type(rows * cols);
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    data[i] = x / 2147483648 - 0.5;
  }
  return { rows, cols, data };
}
export const asFloat32 = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

/** Attention as plain JavaScript loops over Float64Arrays: the peer a web developer writes. */
export function plainAttention(Q, K, V) {
  const n = Q.rows, m = K.rows, d = Q.cols, dv = V.cols;
  const q = Q.data, k = K.data, v = V.data;
  const scale = 1 / Math.sqrt(d);
  const weights = new Float64Array(n * m);
  const output = new Float64Array(n * dv);
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
      weights[i * m + j] = s * scale;
      if (s * scale > top) top = s * scale;
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += (weights[i * m + j] = Math.exp(weights[i * m + j] - top));
    for (let j = 0; j < m; j++) {
      const w = (weights[i * m + j] /= sum);
      for (let c = 0; c < dv; c++) output[i * dv + c] += w * v[j * dv + c];
    }
  }
  return { weights: { rows: n, cols: m, data: weights }, output: { rows: n, cols: dv, data: output } };
}

// Every implementation's output at a size, against the float64 core: a table of wrong numbers
// would time nothing worth timing.
export function agree(name, got, expected, tolerance) {
  let largest = 0, worst = 0;
  for (let i = 0; i < expected.length; i++) {
    largest = Math.max(largest, Math.abs(expected[i]));
    worst = Math.max(worst, Math.abs(got[i] - expected[i]));
  }
  if (!(worst <= tolerance * largest)) throw new Error(`${name}: its output is off by ${worst} (of ${largest})`);
}
