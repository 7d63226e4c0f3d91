// The learner's sentence under node: the tokenizer's answers to every kind of input, and the
// features the lazily loaded tagger bundle gives, built exactly as the page gets it, on the
// hand-tagged sample of 32 sentences (sentence-sample.mjs) and a few more.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TAGGER_BUDGET, buildSentenceTagger } from '../../../scripts/sentence-tagger-build.mjs';
import { LESSON_SENTENCE, MAX_TOKENS, matchKey, readSentence } from '../../../web/src/lib/sentence/tokenize.js';
import { TAGGED_SAMPLE } from './sentence-sample.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const out = join(ROOT, 'build/test-sentence-tagger');
mkdirSync(out, { recursive: true });
const outfile = join(out, 'sentence-tagger.mjs');
const size = await buildSentenceTagger({ outfile });
const { tagTokens } = await import(pathToFileURL(outfile).href);

const tag = (text) => {
  const read = readSentence(text);
  assert.ok(read.ok, `${text}: ${read.message}`);
  return tagTokens(read.tokens);
};

test('the tagger bundle stays within 80 KiB gzipped', () => {
  assert.ok(size.gzipBytes <= TAGGER_BUDGET, `sentence-tagger.js is ${size.gzipBytes} bytes gzipped, over ${TAGGER_BUDGET}`);
});

test('tokens: words and punctuation, the learner\'s spelling kept, matching case-blind', () => {
  const r = readSentence('The dog chased the ball, because it was fast.');
  assert.ok(r.ok);
  assert.deepEqual(r.tokens.map((t) => t.text), ['The', 'dog', 'chased', 'the', 'ball', ',', 'because', 'it', 'was', 'fast', '.']);
  assert.deepEqual(r.tokens.map((t) => t.kind).filter((k) => k === 'punctuation').length, 2);
  assert.equal(matchKey(r.tokens[0]), matchKey(r.tokens[3]));
  assert.deepEqual(readSentence("I don't know O'Brien's well-known dog").tokens.map((t) => t.text),
    ['I', "don't", 'know', "O'Brien's", 'well-known', 'dog']);
  assert.deepEqual(readSentence(LESSON_SENTENCE).tokens.length, 8);
});

test('bad input: each gets a message that says what to do', () => {
  const refused = (text, pattern) => {
    const r = readSentence(text);
    assert.equal(r.ok, false, `${JSON.stringify(text).slice(0, 40)} was taken`);
    assert.match(r.message, pattern);
  };
  refused('', /empty/);
  refused('   \n\t ', /empty/);
  refused('hello', /One token is not enough.*at least 2/);
  refused('. , ! ?', /only punctuation/);
  refused('a b c d e f g h i j k l m n o p q', new RegExp(`has 17 tokens; the toy model reads at most ${MAX_TOKENS}`));
  refused('word '.repeat(2000), /10,000 characters.*at most 16 tokens/);
  refused(null, /Type a sentence/);
  // Refused before any work: a long text is never split.
  const started = performance.now();
  for (let i = 0; i < 100; i++) readSentence('x'.repeat(10_000));
  assert.ok(performance.now() - started < 200);
});

test('other scripts, emoji and right-to-left text: tokens shown, features unknown, said so', () => {
  for (const text of ['Привет мир', '猫が座った 。', 'القطة جلست', 'the 🐈 sat 👍🏽']) {
    const r = readSentence(text);
    assert.ok(r.ok, text);
    assert.match(r.notes.join(' '), /not English words.*no features/, text);
    const tagged = tagTokens(r.tokens);
    for (const t of tagged.filter((x, i) => r.tokens[i].kind === 'other')) {
      assert.deepEqual(t.features, []);
      assert.equal(t.unknown, true);
    }
  }
  assert.match(readSentence('القطة جلست').notes[0], /right-to-left/);
  assert.equal(readSentence('the 👍🏽 dog').tokens.length, 3, 'an emoji with its skin tone is one token');
});

test('markup stays text: it is split into tokens and said to be shown as text', () => {
  const r = readSentence('<script>alert(1)</script> ok');
  assert.ok(r.ok);
  assert.ok(r.tokens.some((t) => t.text === '<'));
  assert.match(r.notes.join(' '), /plain text/);
  assert.ok(tagTokens(r.tokens).every((t) => Array.isArray(t.features)));
});

// The coarse part of speech a token's features give, to compare with the sample's tags.
function coarse(features) {
  const f = new Set(features);
  if (f.has('punctuation')) return '.';
  if (f.has('pronoun')) return 'P';
  if (f.has('determiner')) return 'D';
  if (f.has('relation')) return 'R';
  if (f.has('number')) return 'U';
  if (f.has('verb')) return 'V';
  if (f.has('noun')) return 'N';
  if (f.has('adjective')) return 'J';
  if (f.has('adverb') || f.has('negation')) return 'B';
  return '?';
}

test('features on the 32 tagged sentences: parts of speech and animacy', () => {
  assert.ok(TAGGED_SAMPLE.length >= 30);
  let right = 0, words = 0, animateRight = 0, animateAll = 0, falseAnimate = 0;
  const misses = [];
  for (const line of TAGGED_SAMPLE) {
    const gold = line.split(' ').map((item) => { const i = item.lastIndexOf('/'); return { word: item.slice(0, i), tag: item.slice(i + 1) }; });
    const text = gold.map((g) => g.word).join(' ').replace(/ ([.,])/g, '$1');
    const tagged = tag(text);
    assert.equal(tagged.length, gold.length, text);
    gold.forEach((g, i) => {
      assert.equal(tagged[i].text, g.word, 'the learner\'s spelling is kept');
      if (g.tag === '.') return assert.deepEqual(tagged[i].features, ['punctuation']);
      words++;
      const want = g.tag.replace('+', '');
      if (coarse(tagged[i].features) === want) right++; else misses.push(`${g.word}:${want}/${coarse(tagged[i].features)}`);
      const animate = tagged[i].features.includes('animate');
      if (g.tag.endsWith('+')) { animateAll++; if (animate) animateRight++; } else if (animate) falseAnimate++;
    });
  }
  const accuracy = right / words;
  console.log(`# sentence tagger: ${right}/${words} parts of speech right (${(100 * accuracy).toFixed(1)} %), ${animateRight}/${animateAll} animate nouns found, ${falseAnimate} marked animate wrongly; missed ${misses.join(' ')}`);
  assert.ok(accuracy >= 0.93, `part-of-speech accuracy ${accuracy}`);
  assert.ok(animateRight / animateAll >= 0.9, `animate nouns found: ${animateRight}/${animateAll}`);
  // One known slip: the tagger reads "Nobody" as a noun, and WordNet files "nobody" (a person of
  // no importance) under people.
  assert.ok(falseAnimate <= 1, `${falseAnimate} tokens marked animate wrongly`);
});

test('the sentences the page names', () => {
  const byWord = (text) => Object.fromEntries(tag(text).map((t) => [t.text, t]));
  const dog = byWord('The dog chased the ball because it was fast.');
  assert.ok(dog.dog.features.includes('animate') && dog.dog.features.includes('noun'));
  assert.ok(!dog.ball.features.includes('animate') && dog.ball.features.includes('noun'));
  assert.deepEqual(dog.it.features, ['pronoun']);
  assert.ok(dog.chased.features.includes('verb'));
  assert.ok(dog.because.features.includes('relation') && dog.because.features.includes('cause'));
  const cat = tag(LESSON_SENTENCE);
  assert.deepEqual(cat.map((t) => coarse(t.features)), ['D', 'N', 'V', 'R', 'D', 'N', 'R', 'P']);
  assert.ok(cat[1].features.includes('animate'));
  const ball = byWord('the ball hit the dog because it was hard');
  assert.ok(ball.dog.features.includes('animate') && !ball.ball.features.includes('animate'));
  // Plurals are found through their singular.
  assert.ok(byWord('Children love dogs').dogs.features.includes('animate'));
  assert.ok(byWord('Children love dogs').Children.features.includes('animate'));
});

test('a word the tools do not know is marked guessed', () => {
  const t = tag('The blorptang zinged the frobnicator');
  assert.equal(t[1].guessed, true);
  assert.equal(t[0].guessed, false);
  assert.ok(!tag('the cat sat')[1].guessed, 'an animal WordNet lists is known');
});
