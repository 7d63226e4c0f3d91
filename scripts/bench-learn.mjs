#!/usr/bin/env node
// How fast the learn figure's training runs in the WebAssembly core under node: steps per second
// of one session (both copies, the figure's 8 tokens and 16 sequences) at several d_k, and how many
// steps each copy takes to reach the figure's target loss, in float64 and in float32 (the SIMD
// kernels, which the figure uses). Run by scripts/bench.sh before
// bench.mjs, which puts the rows in docs/performance.md; it writes build/bench/learn.json.
// Times are this process's CPU time (the machine is shared), best of 3 passes.
// Usage: node scripts/bench-learn.mjs [--quick]
import { mkdir, writeFile } from 'node:fs/promises';
import { loadLab } from '../tests/js/load-lab.mjs';

const quick = process.argv.includes('--quick');
const PASSES = quick ? 1 : 3;
const STEPS = 2000; // per pass: long enough to time, short of the session's limit over all passes
const KEY_WIDTHS = [4, 64, 256, 1024];

const lab = await loadLab();
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function stepsPerSecond(dk, precision) {
  let best = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const session = lab.createTraining({ dk, seed: 1, precision });
    try {
      session.train(10); // warm the heap and the caches up
      let done = 0;
      const start = cpuMs();
      // In pieces the size the figure's worker asks for, so the row is what a learner gets.
      while (done < STEPS) {
        session.train(200);
        done += 200;
      }
      best = Math.min(best, (cpuMs() - start) / done);
    } finally {
      session.dispose();
    }
  }
  return 1000 / best;
}

// The first step whose loss is below the target, or null when none is within `limit` steps.
function stepsToTarget(dk, target, limit, precision) {
  const session = lab.createTraining({ dk, seed: 1, precision });
  try {
    const losses = { scaled: [], unscaled: [] };
    // In pieces: one call may take about a second of work (lab.limits.maxMultiplyAdds).
    for (let done = 0; done < limit; done += 200) {
      const out = session.train(Math.min(200, limit - done));
      for (const which of ['scaled', 'unscaled']) losses[which].push(...out[which].loss);
    }
    const first = (loss) => {
      const i = loss.findIndex((value) => value < target);
      return i < 0 ? null : i;
    };
    return { scaled: first(losses.scaled), unscaled: first(losses.unscaled) };
  } finally {
    session.dispose();
  }
}

const TARGET = 0.05;
const rows = KEY_WIDTHS.map((dk) => {
  const f64 = { stepsPerSecond: stepsPerSecond(dk, 'float64'), ...stepsToTarget(dk, TARGET, 3000, 'float64') };
  const f32 = { stepsPerSecond: stepsPerSecond(dk, 'float32'), ...stepsToTarget(dk, TARGET, 3000, 'float32') };
  return { dk, ...f64, float32: f32 };
});
const format = (x) => (x === null ? 'not within 3,000' : x.toLocaleString('en-US'));
const rate = (x) => Math.round(x).toLocaleString('en-US');
const lines = [
  `| d_k | steps/s float64 | steps/s float32 | scaled: steps to loss < ${TARGET} (f64 / f32) | unscaled (f64 / f32) |`,
  '| --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.dk} | ${rate(r.stepsPerSecond)} | ${rate(r.float32.stepsPerSecond)} | ${format(r.scaled)} / ${format(r.float32.scaled)} | ${format(r.unscaled)} / ${format(r.float32.unscaled)} |`),
];
console.log(lines.join('\n'));
await mkdir('build/bench', { recursive: true });
await writeFile('build/bench/learn.json', `${JSON.stringify({ target: TARGET, passes: PASSES, rows }, null, 2)}\n`);
