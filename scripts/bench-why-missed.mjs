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
  for (const n of [256, 1024]) {
    const first = budgets.findIndex((b) => b.call.startsWith(`float32 SIMD at n = ${n}, all four results`));
    if (first < 0) continue;
    const rows = budgets.slice(first, first + 4);
    const [all, allInto, output, outputInto] = rows;
    if ([all, allInto, output, outputInto].every((b) => b.met)) continue;
    out.push(`- **float32 at n = ${n} against the faster peer: ${ratio(all.value)} with all four results (${ratio(allInto.value)} into the ` +
      `caller's arrays), ${ratio(output.value)} output only (${ratio(outputInto.value)} into the caller's array).** Both products run ` +
      'on the same 4-lane kernels, well under the 4-lane limit (the kernels table below gives each product\'s GFLOP/s timed alone); the peer\'s output-only work is the ' +
      'same arithmetic. All four results add 3·n² floats formed and copied out (a fresh buffer for them, unless `into` names ' +
      'the caller\'s), which the peers never make. The machine\'s load moves these rows by up to 40 % between runs.');
  }
  if (missed('attention, worked example, output into')) {
    out.push(`- **the smallest call into the caller's array, ${format(t.workedInto)} against 0.5 µs.** The core's own work for it ` +
      `(the raw export alone, no argument read) is ${format(t.workedRaw)}; reading and checking three matrices and the options ` +
      'in JS (each read once, through the saved built-ins, with the snapshot rule) is the rest.');
  }
  if (missed('attention 8×16 into the caller')) {
    out.push(`- **3× plain JS at 8×16, into the caller's arrays.** Plain JS took ${format(t.eightPlain)}, so 3× asks for ` +
      `${format(t.eightPlain / 3)}; the call took ${format(t.eightInto)}, of which the core's own work is ${format(t.eightRaw)}.`);
  }
  // The key presses, in each condition the page benchmark judged (see bench-page.mjs). Where the
  // time goes in each, from traces, profiles and A/B runs of the presses (2026-12-03, 1280 and 375 px).
  const whereItGoes = {
    tau: 'The core\'s part is microseconds. The rest: the handler recolours the map and the bars (about 2 ms with ' +
      'the store and the readouts), and the frame paints them and hands the map\'s canvas to the compositor. A/B at ' +
      '375 px, in units of the empty page: the slider with the figure\'s drawing switched off costs 1.7–1.8×, and 1.4× ' +
      'with the rest of the lesson taken out of the page; the bars add 0.34× and the lines 0.23× (0.57× the two), the ' +
      'map and the readouts nothing measurable. The bars cost the same drawn as SVG or as an HTML grid whose lengths ' +
      'are backgrounds (a scaleX transform instead made Chromium layerize the whole page again on every press). A ' +
      'frame paints again, from the last frame\'s record, everything rendered near the screen, and the section\'s ' +
      'formulas (MathML, a box per symbol) are half of that (traced). Skipping each paragraph off screen ' +
      '(content-visibility: auto) saved 0.4 ms here but cost the keys slider 0.6 ms (A/B, 20 rounds each); skipping each run of prose saved nothing: the browser renders far past the screen (the run ' +
      'above the figure ended 950 px above a 667 px screen and was rendered).',
    heads: 'The core\'s part (multiHead at h = 8) is about 0.1 ms. The handler shows the new split: its thumbnails ' +
      'go in, the large map is drawn anew (64 cells and numbers; its cells are renamed after the frame), the titles and ' +
      'sums rewritten (about 2 ms); the frame then lays out and paints the new thumbnails and the map. Switched off one ' +
      'at a time (A/B at 375 px), the large map saves 0.5 ms, the thumbnails 0.5 ms and the checks under them 0.4 ms. ' +
      'Every split up to 8 keeps the ' +
      'same room, so nothing below moves (at 375 px, where it moved, a press cost 1.3 ms more); a page of this size ' +
      'costs each frame about 1.5× an empty page\'s even for a bare slider.',
    keys: 'The core\'s part is the preview run, about 0.8 ms (10 widths × T trials × m keys, near 32,000 sampled ' +
      'scores); the two plots and five readouts take about 0.9 ms more, and the frame paints the plots.',
  };
  for (const condition of (page?.input ?? []).filter((c) => c.judged)) {
    const base = condition.baseline?.workMedianMs;
    for (const [name, row, why] of [['the τ slider', condition.tau, whereItGoes.tau],
      ['the head split to h = 8', condition.headsToEight, whereItGoes.heads],
      ['the width experiment\'s keys slider', condition.widthExperimentKeys, whereItGoes.keys]]) {
      if (!row || !(base > 0) || (row.workMedianMs <= 2.5 * base && row.p95Ms <= 16)) continue;
      out.push(`- **Key presses on ${name} at ${condition.name}: ${row.workMedianMs} ms of work (median, ` +
        `${(row.workMedianMs / base).toFixed(1)}× the empty page's ${base} ms), next frame ${row.p95Ms} ms (p95).** ` +
        `${why} The 2-core machine's load moves these rows by up to 40 % between runs.`);
    }
  }
  if (!out.length) return [];
  return ['### Where this run missed a budget, and why', '',
    `(The machine is shared: its load average was ${machine.load_average_1_5_15[0].join(' ')} at the start; the same rows vary by up to 40 % between runs.)`, '',
    ...out, ''];
}
