// The cost figure's settings and the rule that makes them fit together, with no DOM (so node
// can test the rule). Each count is valid on its own between 1 and 10^12, but the core computes
// only a layer whose heads h divide its width d_model and whose every count stays within 2^53
// (a JavaScript number's exact range): a link asking for h = 76 at d_model = 768, or for
// n = 10^12, is moved to the nearest setting that computes, and the store says so.

export const LARGEST = 1e12; // the store's ceiling for every count; far beyond any real layer
// The defaults are the "ViT image" preset the prose names (ViT-Base: 196 patches, d_model 768,
// 12 heads). A link to a width 12 does not divide (512, say) moves h to its nearest divisor, with a
// note; typed into the field, the width waits with a message until h fits.
const DEFAULTS = { n: 196, m: 196, d: 768, h: 12, bytes: '4', same: true };
export const BYTE_CHOICES = [
  { value: '2', text: '2 (16-bit floats)' },
  { value: '4', text: '4 (32-bit floats)' },
  { value: '8', text: '8 (64-bit floats)' },
];

/** The figure's settings: the last valid inputs, so a shared link always computes. */
const whole = (fallback) => ({ type: 'integer', min: 1, max: LARGEST, default: fallback });
export const SETTINGS = {
  'cost.n': whole(DEFAULTS.n),
  'cost.m': whole(DEFAULTS.m),
  // "same as n": m = n (self-attention). A toggle shows it; links before it was on/off say yes/no.
  'cost.same': { type: 'boolean', default: DEFAULTS.same },
  'cost.d': whole(DEFAULTS.d),
  'cost.h': whole(DEFAULTS.h),
  'cost.bytes': { type: 'enum', values: BYTE_CHOICES.map((c) => c.value), default: DEFAULTS.bytes },
};

const EXACT = 2n ** 53n;
const PAST = 'makes a count pass about 9 quadrillion (9\u00b710\u00b9\u2075), the largest a JavaScript number holds exactly';

/** Whether the core can count this layer exactly: every count it returns is at most 2^53. */
function countsFit({ n, m, d, h, b }) {
  const [N, M, D, H, B] = [n, m, d, h, b].map(BigInt);
  return N * M * D <= EXACT // Q Kᵀ and A·V
    && 2n * (N + M) * D * D <= EXACT // the four projections
    && N * M * B * H <= EXACT // the weights of all heads
    && 4n * D * D * B <= EXACT; // the parameter memory (the largest count that d alone sets)
}

/** The widest d_model whose parameter memory 4·d²·bytes stays within 2^53 (at n = m = 1). */
function widest(b) {
  let d = Math.floor(Math.sqrt(Number(EXACT) / (4 * b)));
  while (countsFit({ n: 1, m: 1, d: d + 1, h: 1, b })) d += 1;
  while (!countsFit({ n: 1, m: 1, d, h: 1, b })) d -= 1;
  return d;
}

/** The divisor of d nearest to h (the smaller one on a tie). */
export function nearestDivisor(d, h) {
  let best = 1;
  for (let i = 1; i * i <= d; i += 1) {
    if (d % i !== 0) continue;
    for (const divisor of [i, d / i]) {
      const closer = Math.abs(divisor - h) < Math.abs(best - h)
        || (Math.abs(divisor - h) === Math.abs(best - h) && divisor < best);
      if (closer) best = divisor;
    }
  }
  return best;
}

/**
 * The rule (see lib/state/store.js, constrain): the width first, then the heads, then the
 * lengths. d_model is cut to the widest that counts exactly; h becomes the divisor of d_model
 * nearest to it; n and m (m only when it is not "same as n") are cut to the longest lengths
 * at which every count stays exact. Returns the moves, [{ key, value, reason }].
 */
export function resolveSettings(values, { name = (key) => key } = {}) {
  const moves = [];
  const b = Number(values['cost.bytes']);
  const same = values['cost.same'] === true;
  let { 'cost.n': n, 'cost.m': m, 'cost.d': d, 'cost.h': h } = values;
  const dMax = widest(b);
  if (d > dMax) {
    moves.push({
      key: 'cost.d', value: dMax,
      reason: `${name('cost.d')} = ${d} at ${b} bytes per number puts the parameter memory 4\u00b7d_model\u00b2\u00b7bytes past about 9 quadrillion (9\u00b710\u00b9\u2075), the largest count a JavaScript number holds exactly`,
    });
    d = dMax;
  }
  if (d % h !== 0) {
    const divisor = nearestDivisor(d, h);
    moves.push({
      key: 'cost.h', value: divisor,
      reason: `${name('cost.h')} = ${h} does not divide ${name('cost.d')} = ${d} (the heads split the width evenly)`,
    });
    h = divisor;
  }
  // With "same as n" the figure counts m = n (the stored m waits for the box to be unticked).
  const layer = (cap) => ({ n: Math.min(n, cap), m: Math.min(same ? n : m, cap), d, h, b });
  const longest = Math.max(n, same ? n : m);
  if (!countsFit(layer(longest))) {
    // The longest common cap on n and m at which every count is exact (counts grow with both).
    let low = 1;
    let high = longest;
    while (low < high) {
      const mid = Math.floor((low + high + 1) / 2);
      if (countsFit(layer(mid))) low = mid;
      else high = mid - 1;
    }
    const setting = `${name('cost.d')} = ${d} and ${name('cost.h')} = ${h}`;
    if (n > low) {
      moves.push({
        key: 'cost.n', value: low,
        reason: `${name('cost.n')} = ${n}${same ? ' (and m = n)' : ''} with ${setting} ${PAST}`,
      });
    }
    if (!same && m > low) {
      moves.push({
        key: 'cost.m', value: low,
        reason: `${name('cost.m')} = ${m} with ${name('cost.n')} = ${Math.min(n, low)}, ${setting} ${PAST}`,
      });
    }
  }
  return moves;
}
