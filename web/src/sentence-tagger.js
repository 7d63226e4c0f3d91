// The sentence tagger, bundled on its own as sentence-tagger.js and imported by the page only
// when a learner applies a sentence of their own: compromise's tokenizer and part-of-speech
// tagger (its lexicon trimmed at build time, scripts/sentence-tagger-build.mjs) and the WordNet
// list of people and animals (scripts/build-animacy.mjs). Nothing here fetches anything.
import nlp from 'compromise-src/nlp.js';
import cache from 'compromise-src/1-one/cache/plugin.js';
import change from 'compromise-src/1-one/change/plugin.js';
import contractions from 'compromise-src/1-one/contraction-one/plugin.js';
import freeze from 'compromise-src/1-one/freeze/plugin.js';
import lexicon from 'compromise-src/1-one/lexicon/plugin.js';
import match from 'compromise-src/1-one/match/plugin.js';
import output from 'compromise-src/1-one/output/plugin.js';
import pointers from 'compromise-src/1-one/pointers/plugin.js';
import sweep from 'compromise-src/1-one/sweep/plugin.js';
import tagPlugin from 'compromise-src/1-one/tag/plugin.js';
import tokenize from 'compromise-src/1-one/tokenize/plugin.js';
import preTagger from 'compromise-src/2-two/preTagger/plugin.js';
import animateWords from 'attention-lab:animate-words';
import { tokenFeatures } from './lib/sentence/features.js';

// The plugins of compromise's first level in its own order, then its part-of-speech tagger.
nlp.extend(change);
nlp.extend(output);
nlp.extend(match);
nlp.extend(pointers);
nlp.extend(tagPlugin);
nlp.plugin(contractions);
nlp.extend(tokenize);
nlp.extend(freeze);
nlp.plugin(cache);
nlp.extend(lexicon);
nlp.extend(sweep);
nlp.plugin(preTagger);

const animate = new Set(animateWords.split('\n'));
const world = nlp.world();
const toSingular = world.methods.two?.transform?.noun?.toSingular;

function isAnimate(word) {
  if (animate.has(word)) return true;
  const singular = toSingular ? toSingular(word, world.model) : word;
  return singular !== word && animate.has(singular);
}

function tag(text) {
  const terms = [];
  nlp(text).docs.forEach((sentence) => sentence.forEach((term) => {
    terms.push({ text: term.text, tags: new Set(term.tags), confidence: term.confidence });
  }));
  return terms;
}

/** Features of tokens from readSentence (lib/sentence/tokenize.js). */
export function tagTokens(tokens) {
  return tokenFeatures(tokens, { tag, isAnimate });
}

/** How many words the animacy list holds (for the page's note on where features come from). */
export const animateWordCount = animate.size;
