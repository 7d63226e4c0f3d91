// The toy sentence as the figures print it: its tokens as plain arrays, and spoken names that
// carry each token's position (the sentence has "the" twice, so "“the” (0)" and "“the” (4)").

import { quoteToken } from './index.js';

/**
 * The most tokens a sentence the figures draw may have (the lesson's has 8; a learner's 2 to
 * 16): the figures' token settings are declared for it, and each figure clamps them to its
 * sentence (clampToken).
 */
export const TOY_SENTENCE_LENGTH = 16;

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
  if (tokens.length < 1 || tokens.length > TOY_SENTENCE_LENGTH) {
    throw new Error(`the sentence has ${tokens.length} tokens; the figures draw 1 to ${TOY_SENTENCE_LENGTH}`);
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
    focus: focusRow(sentence),
    fresh: sentence.fresh === true,
  };
}

/**
 * The row the figures read first: the last pronoun (the lesson's "it"), else the last token
 * that is not punctuation, else the last token.
 */
export function focusRow(sentence) {
  const tagged = sentence.tagged ?? [];
  const last = (test) => tagged.findLastIndex(test);
  const pronoun = last((t) => t.features.includes('pronoun'));
  if (pronoun >= 0) return pronoun;
  const word = last((t) => !t.features.includes('punctuation'));
  return word >= 0 ? word : sentence.tokens.length - 1;
}

/**
 * A token setting past the sentence's last token, or any on a sentence just applied
 * (sentence.fresh), or at its default on a sentence other than the lesson's, moves to the
 * sentence's focus row; returns the value.
 */
export function clampToken(state, key, sentence) {
  const value = state.get(key);
  // The default (the lesson's "it") means nothing in another sentence: its focus row stands in.
  const lessonDefault = !sentence.lesson && value === state.defaultOf(key);
  if (value < sentence.n && !sentence.fresh && !lessonDefault) return value;
  state.set(key, sentence.focus);
  return state.get(key);
}

/**
 * Keeps a query-token setting inside the sentence shown, after every change (the store's rule
 * for the figure's prefix, see store.constrain): its schema allows the longest sentence's last
 * token, so a link or an element may name a token that this sentence does not have.
 */
export function keepTokenInSentence(state, key, { n }) {
  const prefix = key.split('.')[0];
  // The default (the lesson's focus token) is not the reader's ask: clampToken moves it silently.
  state.constrain(prefix, (values, { name }) => (values[key] >= n && values[key] !== state.defaultOf(key)
    ? [{ key, value: n - 1, reason: `the sentence has ${n} tokens, numbered 0 to ${n - 1}, and ${name(key)} = ${values[key]} is past its last` }]
    : []));
}
