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
//   sentenceFrom(lab, text, changes)    the toy sentence record for `text` (its tokens tagged),
//                                       with the learner's feature changes (the "features" key)

import { LESSON_SENTENCE, readSentence } from './tokenize.js';

export const SENTENCE_KEY = 'sentence';
export const FEATURES_KEY = 'features';
// The features the toy heads read, which the learner can switch per token in the features table.
export const READ_FEATURES = Object.freeze(['pronoun', 'animate', 'verb', 'relation', 'noun']);
const FEATURE_NAMES = ['pronoun', 'animate', 'verb', 'relation', 'noun', 'determiner', 'place', 'cause',
  'adjective', 'adverb', 'number', 'name', 'plural', 'time', 'negation', 'punctuation'];
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

/**
 * The learner's changes to the tagger's features, e.g. "1-animate,4+animate" (token 1 loses
 * "animate", token 4 gains it): [{ token, on, feature }], or a message when it cannot be read.
 */
export function parseChanges(text) {
  if (text === '') return { changes: [] };
  const changes = [];
  for (const item of text.split(',')) {
    const match = /^(\d{1,2})([+-])([a-z]+)$/.exec(item.trim());
    if (!match || Number(match[1]) > 15 || !FEATURE_NAMES.includes(match[3])) {
      return { problem: `"${item.slice(0, 30)}" is not a change of a feature (write e.g. 4+animate or 1-animate)` };
    }
    changes.push({ token: Number(match[1]), on: match[2] === '+', feature: match[3] });
  }
  return { changes };
}

/** The changes as the link spells them, in token order. */
export function changesText(changes) {
  return [...changes].sort((a, b) => a.token - b.token || a.feature.localeCompare(b.feature))
    .map((c) => `${c.token}${c.on ? '+' : '-'}${c.feature}`).join(',');
}

export const featuresSchema = Object.freeze({
  type: 'text',
  default: '',
  shared: true,
  figures: SENTENCE_FIGURES,
  check(text) {
    const { problem } = parseChanges(text);
    return problem ? `which the figures cannot read (${problem})` : null;
  },
});

/** Defines the sentence's keys (the sentence, the learner's feature changes) unless a figure already did. */
export function defineSentence(state) {
  state.define(FEATURES_KEY, featuresSchema);
  return state.define(SENTENCE_KEY, sentenceSchema);
}

/** The changed tokens' features, Map(token → features), for sentenceFrom. */
export function featureOverrides(tokens, text) {
  const overrides = new Map();
  for (const { token, on, feature } of parseChanges(text).changes ?? []) {
    if (token >= tokens.length) continue;
    const now = new Set(overrides.get(token) ?? tokens[token].features);
    if (on) now.add(feature);
    else now.delete(feature);
    overrides.set(token, FEATURE_NAMES.filter((name) => now.has(name)));
  }
  return overrides;
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
export function sentenceFrom(lab, text, changes = '') {
  const toy = lab.toySentence();
  const tokens = isLesson(text) ? lessonTokens(toy) : tagged(text);
  if (!tokens) throw new Error(`the sentence "${text}" has not been tagged`);
  const overrides = featureOverrides(tokens, changes);
  if (isLesson(text) && overrides.size === 0) {
    return { ...toy, tagged: tokens, original: tokens, lesson: true };
  }
  const used = tokens.map((t, i) => (overrides.has(i) ? { ...t, features: overrides.get(i), changed: true } : t));
  const X = lab.sentenceEmbedding(used.map((t) => ({ word: t.text, features: t.features })));
  return {
    ...toy,
    tokens: used.map((t) => t.text),
    X,
    tagged: used,
    original: tokens, // the tagger's features, before the learner's changes
    lesson: isLesson(text),
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
