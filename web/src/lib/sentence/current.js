// The page's one sentence, shared by every figure built on the toy sentence: its setting (the
// page-level key "sentence" in the link, the iframe's query and the element's attributes), the
// tagger loaded on first use, and the sentence each figure draws: the lesson's own from the
// core, or the learner's, embedded by the core from its tokens' features. No DOM.
//
//   SENTENCE_KEY, sentenceSchema        the store key and its schema (store.js, type 'text')
//   SENTENCE_FIGURES                    the figures that follow it
//   defineSentence(state)               defines the key once per store; returns its value
//   isLesson(text)                      the lesson's sentence (no tagger needed)
//   tagged(text)                        the tagged tokens if known, else undefined
//   tagSentence(text, base)             a promise of the tagged tokens (loads the tagger once)
//   sentenceFrom(lab, text)             the toy sentence record for `text` (its tokens tagged)

import { LESSON_SENTENCE, readSentence } from './tokenize.js';

export const SENTENCE_KEY = 'sentence';
export const SENTENCE_FIGURES = Object.freeze(['temperature', 'all-at-once', 'heads', 'map', 'mistakes', 'roles']);

export const sentenceSchema = Object.freeze({
  type: 'text',
  default: LESSON_SENTENCE,
  // A page-level key: shared by the figures above, defined by whichever mounts first.
  shared: true,
  figures: SENTENCE_FIGURES,
  check(text) {
    const read = readSentence(text);
    return read.ok ? null : `which the figures cannot read (${read.message.replace(/\.$/, '')})`;
  },
});

/** Defines the sentence key in this store unless a figure already did; returns its value. */
export function defineSentence(state) {
  return state.define(SENTENCE_KEY, sentenceSchema);
}

export const isLesson = (text) => text.trim().replace(/\s+/g, ' ').toLowerCase() === LESSON_SENTENCE;

const taggedTexts = new Map(); // text → tagged tokens, [{ text, features, guessed, unknown }]
let tagger = null; // the promise of the tagger module

/** The tagged tokens of a sentence already tagged, else undefined. */
export const tagged = (text) => taggedTexts.get(text);

/**
 * Tags a sentence with the tagger bundle (sentence-tagger.js beside the page's scripts, at
 * `base`), loading it on first use. Resolves to its tagged tokens; rejects with a message.
 */
export async function tagSentence(text, base) {
  if (taggedTexts.has(text)) return taggedTexts.get(text);
  const read = readSentence(text);
  if (!read.ok) throw new Error(read.message);
  tagger ??= import(/* a run-time file, not bundled */ new URL('sentence-tagger.js', base).href).catch((error) => {
    tagger = null;
    throw new Error(`the tagger could not be loaded (${error.message})`);
  });
  const { tagTokens } = await tagger;
  const tokens = tagTokens(read.tokens);
  taggedTexts.set(text, tokens);
  return tokens;
}

/**
 * The sentence record the figures draw (the shape of lab.toySentence()): the lesson's from the
 * core, or the learner's, whose X the core builds from its tokens' features. `overrides` maps a
 * token's index to the features used instead of the tagger's. Throws when `text` is not tagged
 * yet (call tagSentence first).
 */
export function sentenceFrom(lab, text, overrides = new Map()) {
  const toy = lab.toySentence();
  if (isLesson(text) && overrides.size === 0) {
    return { ...toy, tagged: lessonTokens(toy), lesson: true };
  }
  const tokens = isLesson(text) ? lessonTokens(toy) : tagged(text);
  if (!tokens) throw new Error(`the sentence "${text}" has not been tagged`);
  const used = tokens.map((t, i) => (overrides.has(i) ? { ...t, features: overrides.get(i), changed: true } : t));
  const X = lab.sentenceEmbedding(used.map((t) => ({ word: t.text, features: t.features })));
  return {
    ...toy,
    tokens: used.map((t) => t.text),
    X,
    tagged: used,
    lesson: false,
    // The decoder's rows translate the lesson's sentence, so encoder–decoder attention keeps
    // the lesson's encoder: { tokens, X } of the sentence its keys and values come from.
    crossEncoder: { tokens: [...toy.tokens], X: toy.X },
  };
}

/** The lesson's tokens with the features the core gave them (columns 16–31 of its X). */
function lessonTokens(toy) {
  const names = toy.tokenFeatures;
  return toy.tokens.map((text, i) => ({
    text,
    features: names.filter((_, f) => toy.X.data[i * toy.X.cols + 16 + f] === 1),
    guessed: false,
    unknown: false,
  }));
}
