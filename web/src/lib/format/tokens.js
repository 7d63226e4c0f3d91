// The toy sentence as the figures print it: its tokens as plain arrays, and spoken names that
// carry each token's position (the sentence has "the" twice, so "“the” (0)" and "“the” (4)").

import { quoteToken } from './index.js';

/** How many tokens the core's toy sentence has: the figures' settings are declared for it. */
export const TOY_SENTENCE_LENGTH = 8;

/** Spoken names of tokens: “cat” (1). */
function tokenNamesOf(tokens) {
  return tokens.map((token, i) => `${quoteToken(token)} (${i})`);
}

/** A picker's options for choosing one token: "7 · it". */
export function tokenOptions(tokens) {
  return tokens.map((token, i) => ({ value: i, text: `${i} \u00b7 ${token}` }));
}

/**
 * The core's toy sentence with what every figure derives from it first: { X, WQ, WK, WV, WO,
 * crossX, tokens, tokenNames, n, features, jobs, crossTokens, crossNames }.
 */
export function readToySentence(lab) {
  const sentence = lab.toySentence();
  const tokens = Array.from(sentence.tokens);
  if (tokens.length !== TOY_SENTENCE_LENGTH) {
    throw new Error(`the toy sentence has ${tokens.length} tokens; the figures are set up for ${TOY_SENTENCE_LENGTH}`);
  }
  const crossTokens = Array.from(sentence.crossTokens ?? []);
  return {
    ...sentence,
    tokens,
    tokenNames: tokenNamesOf(tokens),
    n: tokens.length,
    features: Array.from(sentence.features ?? []),
    jobs: Array.from(sentence.headJobs ?? []),
    crossTokens,
    crossNames: tokenNamesOf(crossTokens),
  };
}
