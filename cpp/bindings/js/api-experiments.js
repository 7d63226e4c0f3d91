// The JS API's experiments, records and training: widthExperiment, cost, layerComparison,
// toySentence, createTraining (training.js). Each reads and checks its setup
// (read-arguments.js) and runs one raw export through the heap protocol (heap-calls.js).
import { EXACT, budget, given, readOptions, wholeNumber } from './read-arguments.js';
import { createTraining } from './training.js';

/** The experiments, records and training sessions of the API over one core and its heap protocol. */
export function experimentFunctions(core, calls) {
  let toy = null; // the toy sentence, fetched once; every caller gets copies

  return {
    /**
     * The "why divide by √d_k" experiment: widths d_k = 2^minLog2 … 2^maxLog2 (minLog2 = 1 by
     * default), `trials` random N(0,1) queries against `keys` keys each. Returns { widths,
     * unscaled: { meanMax, meanEntropy }, scaled: { meanMax, meanEntropy } }, arrays indexed
     * like widths.
     */
    widthExperiment(setup) {
      const o = readOptions('widthExperiment', setup, ['keys', 'minLog2', 'maxLog2', 'trials', 'seed'], 'the setup', '{ keys: 10, trials: 2000 }');
      const keys = wholeNumber('keys m', given(o.keys, 10), 2, 4096);
      const maxLog2 = wholeNumber('maxLog2', given(o.maxLog2, 10), 1, 16);
      // Each width has its own random stream: any range of widths gives the full run's numbers there.
      const minLog2 = wholeNumber('minLog2', given(o.minLog2, 1), 1, maxLog2);
      const trials = wholeNumber('trials T', given(o.trials, 2000), 1, 1_000_000);
      const seed = wholeNumber('seed', given(o.seed, 1), 0, Number.MAX_SAFE_INTEGER);
      // Per width and trial: m normal draws for the scores, two softmax summaries of m entries,
      // and the query's norm (the same count as cpp/core/width_experiment.cpp).
      const widthCount = maxLog2 - minLog2 + 1;
      budget('widthExperiment', () => `the work (widths · trials · (3 · keys + 1) = ${widthCount} · ${trials} · (3 · ${keys} + 1))`,
        widthCount * trials * (3 * keys + 1), 'maxExperimentWork');
      calls.stage();
      calls.numbers(keys, minLog2, maxLog2, trials, seed);
      const [widths, maxUnscaled, entropyUnscaled, maxScaled, entropyScaled] = calls.run(core._al_width_experiment);
      return {
        widths: widths.data,
        unscaled: { meanMax: maxUnscaled.data, meanEntropy: entropyUnscaled.data },
        scaled: { meanMax: maxScaled.data, meanEntropy: entropyScaled.data },
      };
    },

    /**
     * Cost of one attention layer: n queries, m keys, width dModel, h heads, bytes per number.
     * Every count is a whole number from 1 to 2^53. Returns { qkMacs, avMacs, projectionMacs,
     * weightNumbersPerHead, weightBytesPerHead, weightBytesAllHeads, projectionParameters,
     * outputParameters, parameters, parameterBytes }.
     */
    cost(setup) {
      const o = readOptions('cost', setup, ['n', 'm', 'dModel', 'heads', 'bytesPerNumber'], 'the setup', '{ n: 8, dModel: 16 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const m = wholeNumber('m', given(o.m, n), 1, EXACT);
      const dModel = wholeNumber('d_model', o.dModel, 1, EXACT);
      const heads = wholeNumber('heads h', given(o.heads, 1), 1, EXACT);
      const bytes = wholeNumber('bytes per number', given(o.bytesPerNumber, 4), 1, EXACT);
      return calls.valueObject(core._al_cost(n, m, dModel, heads, bytes));
    },

    /**
     * Table 1 of the paper (first three rows) evaluated at length n, width d, kernel k:
     * [{ layer, complexityPerLayer, sequentialOps, maxPathLength }].
     */
    layerComparison(setup) {
      const o = readOptions('layerComparison', setup, ['n', 'd', 'k'], 'the setup', '{ n: 196, d: 768 }');
      const n = wholeNumber('n', o.n, 1, EXACT);
      const d = wholeNumber('d', o.d, 1, EXACT);
      const k = wholeNumber('kernel width k', given(o.k, 3), 2, EXACT);
      return calls.valueObject(core._al_layer_comparison(n, d, k));
    },

    /**
     * The toy eight-token sentence "the cat sat on the mat because it": { tokens, features,
     * X, WQ, WK, WV, WO }, plus the decoder sentence for cross-attention: { crossTokens, crossX }.
     */
    toySentence() {
      toy ??= core._al_toy_sentence();
      const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
      return {
        tokens: [...toy.tokens], features: [...toy.features],
        X: copy(toy.X), WQ: copy(toy.WQ), WK: copy(toy.WK), WV: copy(toy.WV), WO: copy(toy.WO),
        crossTokens: [...toy.crossTokens], crossX: copy(toy.crossX),
        headJobs: [...toy.headJobs],
      };
    },

    /**
     * A training session for the learn figure (training.js): two copies of one attention head,
     * scaled by √d_k and not, trained side by side. Returns a session: train(steps),
     * setLearningRate(rate), reset(), state(options), history(), dispose().
     */
    createTraining: (settings) => createTraining(core, calls, settings),
  };
}
