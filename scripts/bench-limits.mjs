// The --limits rows of scripts/bench.mjs: the worst call each kind of the JS API accepts under
// one call's work limit (lab.limits, cpp/core/limits.hpp), timed once after a warm-up, in CPU
// time of this process (user + system: the machine is shared, and wall time would count the time
// other processes hold the cores) and wall time. The limits are chosen so that each of these
// takes about a second of one core; this prints what it takes here. Nothing fails on a number.
import { loadLab } from '../tests/js/load-lab.mjs';

function filled(rows, cols, Type = Float64Array) {
  const data = new Type(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i) * 0.5;
  return { rows, cols, data };
}

/** [kind, what, counted work, limit name, () => call] for the worst accepted call of each kind. */
function worstCalls(lab) {
  const L = lab.limits;
  const f64 = (n, d) => filled(n, d);
  const f32 = (n, d) => filled(n, d, Float32Array);
  const training = (settings) => {
    const session = lab.createTraining(settings);
    const steps = Math.min(lab.learnLimits.maxSteps, Math.floor(L.maxMultiplyAdds / session.settings.stepWork));
    return [`${steps} steps of ${JSON.stringify(settings)}`, steps * session.settings.stepWork, () => { session.reset(); session.train(steps); }];
  };
  const rows = [
    ['matmul float64', '1024x1024 · 1024x2048', 2 ** 31, 'maxMultiplyAdds', ((a, b) => () => lab.matmul(a, b))(f64(1024, 1024), f64(1024, 2048))],
    ['attention float64', 'n = m = 2048, d = 64', 2048 ** 2 * (128 + L.pairWork), 'maxMultiplyAdds', ((x) => () => lab.attention(x, x, x))(f64(2048, 64))],
    ['attention float32', 'n = m = 4096, d = 64', 4096 ** 2 * (128 + L.pairWork), 'maxMultiplyAddsFloat32', ((x) => () => lab.attention(x, x, x))(f32(4096, 64))],
    ['streaming float64', 'n = m = 4096, d = 64', 4096 ** 2 * 128, 'maxMultiplyAdds', ((x) => () => lab.streamingAttention(x, x, x))(f64(4096, 64))],
    ['streaming float32', 'n = m = 8192, d = 64', 8192 ** 2 * 128, 'maxMultiplyAddsFloat32', ((x) => () => lab.streamingAttention(x, x, x))(f32(8192, 64))],
    ['multiHead float64', 'n = 2048, d = 32, h = 1', 8 * 2048 * 32 * 32 + 2 * 2048 ** 2 * 32 + 2048 ** 2 * L.pairWork, 'maxMultiplyAdds',
      ((x, w) => () => lab.multiHead(x, w, w, w, w, 1))(f64(2048, 32), f64(32, 32))],
    ['additiveScores float64', 'n = m = 1024, d_a = 31', 2 * 1024 * 31 + 64 * 1024 ** 2 * 31, 'maxMultiplyAdds',
      ((q, w, v) => () => lab.additiveScores(q, q, w, w, v))(f64(1024, 1), f64(31, 1), f64(1, 31))],
    ['widthExperiment', 'keys 4096, widths 2…2^10, T = 406', 10 * 406 * (3 * 4096 + 1), 'maxExperimentWork',
      () => lab.widthExperiment({ keys: 4096, maxLog2: 10, trials: 406 })],
    ['train, d_k = 4', ...training({ dk: 4 }).slice(0, 2), 'maxMultiplyAdds', training({ dk: 4 })[2]],
    ['train, d_k = 4096', ...training({ dk: 4096 }).slice(0, 2), 'maxMultiplyAdds', training({ dk: 4096 })[2]],
  ];
  return rows;
}

const seconds = (usage) => (usage.user + usage.system) / 1e6;

/** Times each worst accepted call once after a warm-up and prints the rows. */
export async function printLimitRows() {
  const lab = await loadLab();
  const out = [];
  for (const [kind, what, work, limit, call] of worstCalls(lab)) {
    if (work > lab.limits[limit]) throw new Error(`${kind}: ${work} is past lab.limits.${limit}; the row must be an accepted call`);
    call(); // warm-up: the memory grows once, the code is compiled
    const start = process.cpuUsage();
    const wall = performance.now();
    call();
    out.push({ kind, what, work: `${(work / lab.limits[limit] * 100).toFixed(0)} % of ${limit}`,
      cpu: `${seconds(process.cpuUsage(start)).toFixed(2)} s`, wall: `${((performance.now() - wall) / 1000).toFixed(2)} s` });
  }
  console.log('The worst accepted call of each kind (one call, after a warm-up):');
  console.table(out);
}
