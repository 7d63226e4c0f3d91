// The JS API's experiments, records and training: widthExperiment, cost, layerComparison,
// toySentence, sentenceEmbedding, createTraining (training.js). Each reads and checks its setup
// (read-arguments.js) and runs one raw export through the heap protocol (heap-calls.js).
import { EXACT, budget, describe, given, read, readOptions, wholeNumber } from './read-arguments.js';
import { readMatrix } from './read-matrix.js';
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
     * The toy eight-token sentence "the cat sat on the mat because it": { tokens, features (the
     * 64 columns' names), tokenFeatures (the 16 named features a token may have), headJobs, X,
     * WQ, WK, WV, WO }, plus the decoder sentence for cross-attention: { crossTokens, crossX }.
     */
    toySentence() {
      toy ??= core._al_toy_sentence();
      const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
      return {
        tokens: [...toy.tokens], features: [...toy.features], tokenFeatures: [...toy.tokenFeatures],
        X: copy(toy.X), WQ: copy(toy.WQ), WK: copy(toy.WK), WV: copy(toy.WV), WO: copy(toy.WO),
        crossTokens: [...toy.crossTokens], crossX: copy(toy.crossX),
        headJobs: [...toy.headJobs],
      };
    },

    /**
     * X (n×64) of any sentence of 1 to 16 tokens, built by the core from each token's word and
     * features: `tokens` is an array of { word, features } records, `word` a string (tokens whose
     * words are the same but for case share one identity code), `features` an array of names
     * from toySentence().tokenFeatures. The lesson's records give toySentence().X exactly.
     */
    sentenceEmbedding(tokens) {
      toy ??= core._al_toy_sentence();
      const names = toy.tokenFeatures;
      const most = 16; // the core's kSentenceMaxTokens: orthogonal identity codes and distinct places
      const records = `an array of 1 to ${most} { word, features } records`;
      if (!Array.isArray(tokens)) throw new Error(`sentenceEmbedding: tokens must be ${records}, got ${describe(tokens)}`);
      const n = tokens.length;
      if (n < 1 || n > most) throw new Error(`sentenceEmbedding: tokens must be ${records}, got ${n} tokens`);
      const cols = 1 + names.length;
      const data = new Float64Array(n * cols);
      const numbers = new Map();
      for (let i = 0; i < n; i++) {
        const owner = `tokens[${i}]`;
        const token = read(tokens, i, 'tokens');
        if (token === null || typeof token !== 'object' || Array.isArray(token)) {
          throw new Error(`sentenceEmbedding: ${owner} must be a { word, features } record, got ${describe(token)}`);
        }
        for (const key of Object.keys(token)) {
          if (key !== 'word' && key !== 'features') throw new Error(`sentenceEmbedding: ${owner} has an unknown field "${key}"; the fields are word and features`);
        }
        const word = read(token, 'word', owner);
        if (typeof word !== 'string' || word.length === 0 || word.length > 100) {
          throw new Error(`sentenceEmbedding: ${owner}.word must be a string of 1 to 100 characters, got ${describe(word)}`);
        }
        const features = read(token, 'features', owner);
        if (!Array.isArray(features)) throw new Error(`sentenceEmbedding: ${owner}.features must be an array of feature names, got ${describe(features)}`);
        const key = word.toLowerCase();
        if (!numbers.has(key)) numbers.set(key, numbers.size);
        data[i * cols] = numbers.get(key);
        for (let f = 0; f < features.length; f++) {
          const name = read(features, f, `${owner}.features`);
          const column = typeof name === 'string' ? names.indexOf(name) : -1;
          if (column < 0) {
            throw new Error(`sentenceEmbedding: ${owner}.features[${f}] must be one of ${names.join(', ')}; got ${describe(name)}`);
          }
          data[i * cols + 1 + column] = 1;
        }
      }
      calls.stage(readMatrix('tokens', { rows: n, cols, data }));
      return calls.run(core._al_sentence_embedding)[0];
    },

    /**
     * A training session for the learn figure (training.js): two copies of one attention head,
     * scaled by √d_k and not, trained side by side. Returns a session: train(steps),
     * setLearningRate(rate), reset(), state(options), history(), dispose().
     */
    createTraining: (settings) => createTraining(core, calls, settings),
  };
}
