// The benchmark report's "where this run missed a budget, and why" (scripts/bench.mjs): for each
// missed budget, by how much and where the time goes, computed from the run's own rows.

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`);
const ratio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '');

// For each budget this run missed, by how much and where the time goes, from this run's rows.
export function whyMissed({ budgets, budgetTime: t, native, page, machine }) {
  const missed = (call) => budgets.find((b) => b.call.startsWith(call))?.met === false;
  const out = [];
  if (missed('attention, n = m = 8')) {
    const floor = t.eightRaw + t.buffer8;
    const natively = native.has('f64_direct/8/16') ? ` (natively the whole call takes ${format(native.get('f64_direct/8/16'))})` : '';
    out.push(`- **attention 8×16, ${format(t.eight)} against 2 µs.** Two parts of it no binding removes: the core's own ` +
      `work, ${format(t.eightRaw)}${natively}, and the one fresh ` +
      `buffer the caller gets its four results in, ${format(t.buffer8)} (V8 makes every ArrayBuffer outside its heap). ` +
      `Those two alone are ${format(floor)}; the other ${format(Math.max(0, t.eight - floor))} is reading and checking the ` +
      'arguments and copying the data in and out.');
  }
  if (missed('multiHead, toy sentence 8×16, h = 4')) {
    const floor = t.multiHeadRaw + t.buffer18;
    out.push(`- **multiHead at h = 4, ${format(t.multiHead)} against 6 µs.** The core's work is ${format(t.multiHeadRaw)} ` +
      `(three projections, four heads, the output projection: about 10,000 multiply-adds in float64) and the buffer ` +
      `for its 18 result matrices (1,152 numbers) ${format(t.buffer18)}: ${format(floor)} before a single argument is read.`);
  }
  if (missed('attention 8×16 through the JS API, speed-up')) {
    const asked = t.eightPlain / 3;
    const floor = t.eightRaw + t.buffer8;
    out.push(`- **3× plain JS at 8×16.** Plain JS loops took ${format(t.eightPlain)} in this run, so 3× asks for ` +
      `${format(asked)}: ${asked < floor ? 'under the floor above' : `the call took ${format(t.eight - asked)} more`}.`);
  }
  if (missed('float32 SIMD at n = 256, speed-up over the faster peer')) {
    out.push(`- **float32 at n = 256 with every result.** It hands back the raw scores, the scaled scores and the ` +
      'weights besides the output: 3·n² floats (768 KiB) formed, checked and copied out, which the peers never ' +
      `make. With results: 'output', the work the peers do, it is ${ratio(budgets.find((b) => b.call.includes('output only'))?.value)} the faster peer.`);
  }
  // The key presses, in each condition the page benchmark judged (see bench-page.mjs).
  for (const condition of (page?.input ?? []).filter((c) => c.judged)) {
    const base = condition.baseline?.workMedianMs;
    for (const [name, row] of [['the τ slider', condition.tau], ['the head split to h = 8', condition.headsToEight],
      ['the width experiment\'s keys slider', condition.widthExperimentKeys]]) {
      if (!row || !(base > 0) || (row.workMedianMs <= 2.5 * base && row.p95Ms <= 16)) continue;
      out.push(`- **Key presses on ${name} at ${condition.name}: ${row.workMedianMs} ms of work (median, ` +
        `${(row.workMedianMs / base).toFixed(1)}× the empty page's ${base} ms), next frame ${row.p95Ms} ms (p95).** ` +
        'The core\'s part is microseconds; the rest is the figure\'s handler and its frame\'s style, layout, paint ' +
        'and commit, with the 2-core machine\'s load on top.');
    }
  }
  if (!out.length) return [];
  return ['### Where this run missed a budget, and why', '',
    `(The machine is shared: its load average was ${machine.load_average_1_5_15[0].join(' ')} at the start; the same rows vary by up to 40 % between runs.)`, '',
    ...out, ''];
}
