// The page-level sentence keys in the store, the links, the embeds' key translation, and the
// learner's feature changes: pure parts under node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  FEATURES_KEY, SENTENCE_KEY, changesText, defineSentence, featureOverrides, isLesson, parseChanges,
} from '../../../web/src/lib/sentence/current.js';
import { LESSON_SENTENCE } from '../../../web/src/lib/sentence/tokenize.js';
import { embedSnippets, figureAttributes, figureKeys, figureLink } from '../../../web/src/lib/share/links.js';
import { prefixedSearch, unprefixedPairs } from '../../../web/src/lib/state/embed-keys.js';
import { createStore } from '../../../web/src/lib/state/store.js';

const SETTINGS = { 'map.query': { type: 'integer', min: 0, max: 15, default: 7 } };

test('the sentence is one key for the whole page, defined by whichever figure comes first', () => {
  const notices = [];
  const state = createStore({ search: '?sentence=The+dog+barked&map.query=2', onNotice: (m) => notices.push(m) });
  state.defineAll(SETTINGS);
  assert.equal(defineSentence(state), 'The dog barked');
  assert.equal(defineSentence(state), 'The dog barked', 'a second figure finds it defined');
  assert.equal(state.get(FEATURES_KEY), '');
  assert.deepEqual(notices, []);
  const keys = figureKeys(state, 'map').map((k) => k.short);
  assert.deepEqual(keys, ['query', 'features', 'sentence']);
  assert.deepEqual(figureKeys(state, 'lookup').map((k) => k.short), [], 'a figure that does not follow it');
  const link = new URL(figureLink({ state, figureName: 'map', pageUrl: 'https://example.org/lab/' }));
  assert.equal(link.searchParams.get('sentence'), 'The dog barked');
  assert.equal(link.searchParams.get('map.query'), '2');
  assert.deepEqual(figureAttributes(state, 'map'), { query: '2', sentence: 'The dog barked' }, 'features at its default is left out');
  const { element, iframe } = embedSnippets({ state, figureName: 'map', embedBase: 'https://example.org/lab/', title: 'Map' });
  assert.match(element, /<attention-figure name="map" query="2" sentence="The dog barked">/);
  assert.match(iframe, /embed\.html\?figure=map&amp;query=2&amp;sentence=The\+dog\+barked#/);
});

test('the lesson\'s sentence at its default stays out of links, attributes and snippets', () => {
  const state = createStore();
  state.defineAll(SETTINGS);
  defineSentence(state);
  assert.equal(state.get(SENTENCE_KEY), LESSON_SENTENCE);
  assert.deepEqual(figureAttributes(state, 'map'), { query: '7' });
  assert.ok(isLesson('  The cat sat on the  mat because it '));
});

test('a bad sentence or feature change in a link gets a notice and the default', () => {
  const notices = [];
  const state = createStore({ search: `?sentence=one&features=${encodeURIComponent('3+bouncy')}`, onNotice: (m) => notices.push(m) });
  defineSentence(state);
  assert.equal(state.get(SENTENCE_KEY), LESSON_SENTENCE);
  assert.equal(state.get(FEATURES_KEY), '');
  assert.match(notices.join('\n'), /sentence = one, which the figures cannot read \(One token is not enough/);
  assert.match(notices.join('\n'), /features = 3\+bouncy, which the figures cannot read/);
  const long = createStore({ search: `?sentence=${'x'.repeat(10_000)}`, onNotice: (m) => notices.push(m) });
  defineSentence(long);
  assert.equal(long.get(SENTENCE_KEY), LESSON_SENTENCE);
  assert.match(notices.at(-1), /10,000 characters/);
});

test('embeds name the sentence without a figure prefix, both ways', () => {
  assert.equal(prefixedSearch('map', [['figure', 'map'], ['query', '2'], ['sentence', 'a b']]), '?map.query=2&sentence=a+b');
  assert.deepEqual(unprefixedPairs('map', '?map.query=2&sentence=a+b&features=1%2Banimate&other=1'),
    [['query', '2'], ['sentence', 'a b'], ['features', '1+animate']]);
});

test('feature changes: read, spelt back in token order, applied over the tagger\'s features', () => {
  assert.deepEqual(parseChanges('4+animate,1-animate').changes, [
    { token: 4, on: true, feature: 'animate' }, { token: 1, on: false, feature: 'animate' }]);
  assert.equal(changesText(parseChanges('4+animate,1-animate').changes), '1-animate,4+animate');
  for (const bad of ['4animate', '16+animate', '1+bouncy', '1+animate,,']) assert.ok(parseChanges(bad).problem, bad);
  const tokens = [{ features: ['determiner'] }, { features: ['noun', 'animate'] }, { features: ['noun'] }];
  const overrides = featureOverrides(tokens, '1-animate,2+animate,9+noun');
  assert.deepEqual([...overrides], [[1, ['noun']], [2, ['animate', 'noun']]]);
});
