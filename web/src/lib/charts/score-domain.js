// One colour scale for the toy sentence's scaled scores Q Kᵀ / √d_k, shared by every figure that
// draws them (the lookup and the all-at-once figures), so that the same matrix has the same
// colours wherever it appears. It spans both settings the lookup figure toggles between: the
// toy's own W_K, and W_K tied to W_Q.

/** [smallest, largest] scaled score over both settings, from the core. */
export function toyScoreDomain(lab, { X, WQ, WK, WV }) {
  const Q = lab.matmul(X, WQ);
  const V = lab.matmul(X, WV);
  const untied = lab.attention(Q, lab.matmul(X, WK), V).scaledScores;
  const tied = lab.attention(Q, Q, V).scaledScores;
  let low = Infinity;
  let high = -Infinity;
  for (const data of [untied.data, tied.data]) {
    for (const v of data) {
      low = Math.min(low, v);
      high = Math.max(high, v);
    }
  }
  return [low, high];
}
