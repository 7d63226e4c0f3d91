// Each token's features, from the tagger's parts of speech and a word list of people and animals
// (scripts/build-animacy.mjs, from WordNet). No DOM. Used by the lazily loaded tagger bundle
// (web/src/sentence-tagger.js) and its tests.
//
//   tokenFeatures(tokens, { tag, isAnimate }) → [{ text, features: [names], guessed, unknown }]
//   guessed: the tagger's lexicon does not hold the word, so its part of speech came from the
//   tagger's suffix and context rules; unknown: not an English word (another script, an emoji)
//   tag(text) → the tagger's terms, [{ text, tags: Set, confidence }] in order;
//   isAnimate(word) → whether WordNet files the noun's most common sense under people or animals

// Two features no tagger gives: which relation words speak of place and of cause. These are
// closed classes of English (a few prepositions and conjunctions), listed here.
const PLACE_WORDS = new Set(['on', 'in', 'at', 'under', 'over', 'into', 'onto', 'near', 'behind', 'above', 'below',
  'beside', 'inside', 'outside', 'between', 'beneath', 'across', 'around', 'through', 'toward', 'towards', 'upon', 'within']);
const CAUSE_WORDS = new Set(['because', 'since', 'so', 'therefore', 'thus', 'hence', 'as', 'for']);

const has = (tags, ...names) => names.some((name) => tags.has(name));

/** The features of one word from its tags. */
export function wordFeatures(word, tags, isAnimate) {
  const lower = word.toLowerCase();
  const out = new Set();
  const pronoun = has(tags, 'Pronoun', 'Possessive', 'Reflexive');
  if (pronoun) out.add('pronoun');
  if (has(tags, 'Determiner') && !pronoun) out.add('determiner');
  const relation = has(tags, 'Preposition', 'Conjunction', 'QuestionWord') && !pronoun;
  if (relation) out.add('relation');
  if (has(tags, 'Verb', 'Copula', 'Modal', 'Auxiliary') && !relation) out.add('verb');
  const noun = has(tags, 'Noun') && !pronoun && !out.has('verb') && !relation;
  if (noun) out.add('noun');
  if (has(tags, 'Adjective') && !noun) out.add('adjective');
  if (has(tags, 'Adverb') && !out.has('verb')) out.add('adverb');
  if (has(tags, 'Value', 'Cardinal', 'NumericValue', 'TextValue', 'Ordinal') || /^\p{N}+$/u.test(word)) out.add('number');
  if (has(tags, 'ProperNoun') && noun) out.add('name');
  if (has(tags, 'Plural') && noun) out.add('plural');
  if (has(tags, 'Date', 'Month', 'WeekDay', 'Duration', 'Time')) out.add('time');
  if (has(tags, 'Negative')) out.add('negation');
  if (noun && isAnimate(lower)) out.add('animate');
  if ((relation && PLACE_WORDS.has(lower)) || (noun && has(tags, 'Place'))) out.add('place');
  if (relation && CAUSE_WORDS.has(lower)) out.add('cause');
  return [...out];
}

/** Features for every token of a sentence read by readSentence (tokenize.js). */
export function tokenFeatures(tokens, { tag, isAnimate }) {
  const words = tokens.filter((t) => t.kind === 'word');
  // The tagger reads the words as a sentence, punctuation where the learner put it.
  const text = tokens.map((t, i) => (i > 0 && t.kind !== 'punctuation' ? ' ' : '') + t.text).join('');
  const terms = tag(text).filter((term) => term.text !== '' || term.tags.size > 0);
  // Line the tagger's terms up with the words: a contraction the tagger splits ("don't" → do,
  // not) gives its tags to one token.
  const byWord = new Map();
  let t = 0;
  for (const word of words) {
    const key = word.text.toLowerCase().replace(/\u2019/g, "'");
    while (t < terms.length && terms[t].text.toLowerCase().replace(/\u2019/g, "'") !== key) t++;
    if (t === terms.length) break;
    const tags = new Set(terms[t].tags);
    let guessed = terms[t].confidence !== undefined && terms[t].confidence < 1;
    t++;
    while (t < terms.length && terms[t].text === '') {
      terms[t].tags.forEach((x) => tags.add(x));
      t++;
    }
    if (tags.size === 0) guessed = true;
    byWord.set(word, { tags, guessed });
  }
  return tokens.map((token) => {
    if (token.kind === 'punctuation') return { text: token.text, features: ['punctuation'], guessed: false, unknown: false };
    if (token.kind === 'other') return { text: token.text, features: [], guessed: false, unknown: true };
    const found = byWord.get(token);
    if (!found) return { text: token.text, features: [], guessed: true, unknown: false };
    const features = wordFeatures(token.text, found.tags, isAnimate);
    // A noun the tagger only guessed is known after all when WordNet lists it as a person or animal.
    const guessed = found.guessed && !features.includes('animate');
    return { text: token.text, features, guessed, unknown: false };
  });
}
