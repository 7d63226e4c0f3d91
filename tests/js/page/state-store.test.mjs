// The page's state store (web/src/lib/state/store.js) is plain JavaScript with no DOM, so it
// is tested directly under node: schema validation, URL reading and writing, listeners.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStore } from '../../../web/src/lib/state/store.js';

function storeWith(search) {
  const notices = [];
  const writes = [];
  const store = createStore({ search, onNotice: (m) => notices.push(m), writeSearch: (searchNow) => writes.push(searchNow()) });
  return { store, notices, writes };
}

const TAU = { type: 'number', min: 0.01, max: 100, default: 1 };
const QUERY = { type: 'integer', min: 0, max: 7, default: 7 };

test('defaults apply when the URL says nothing', () => {
  const { store, notices } = storeWith('');
  assert.equal(store.define('tau', TAU), 1);
  assert.equal(store.get('tau'), 1);
  assert.deepEqual(notices, []);
});

test('readable URL values are taken, out-of-range ones clamped with a notice', () => {
  const { store, notices } = storeWith('?tau=250&query=3');
  assert.equal(store.define('tau', TAU), 100);
  assert.equal(store.define('query', QUERY), 3);
  assert.equal(notices.length, 1);
  assert.match(notices[0], /tau = 250/);
});

test('unreadable URL values fall back to the default with a notice', () => {
  const { store, notices } = storeWith('?tau=&query=2.5&mode=zzz');
  assert.equal(store.define('tau', TAU), 1);
  assert.equal(store.define('query', QUERY), 7);
  assert.equal(store.define('mode', { type: 'enum', values: ['keys', 'queries'], default: 'keys' }), 'keys');
  assert.equal(notices.length, 3);
});

test('set validates, notifies only on change, and writes non-default values to the URL', () => {
  const { store, writes } = storeWith('?other=kept');
  store.define('tau', TAU);
  store.define('query', QUERY);
  const seen = [];
  const unsubscribe = store.subscribe(['tau', 'query'], (value, key) => seen.push(`${key}=${value}`));
  store.set('tau', 0.5);
  store.set('tau', 0.5); // unchanged: no listener call, no write
  store.set('query', 12); // clamped to 7, the current value: nothing happens
  store.set('query', 2);
  assert.deepEqual(seen, ['tau=0.5', 'query=2']);
  assert.deepEqual(writes, ['?other=kept&tau=0.5', '?other=kept&tau=0.5&query=2']);
  store.set('tau', 1);
  assert.equal(writes.at(-1), '?other=kept&query=2', 'a default value leaves the URL');
  unsubscribe();
  store.set('query', 1);
  assert.equal(seen.length, 3);
});

test('keys are defined once and must exist', () => {
  const { store } = storeWith('');
  store.define('tau', TAU);
  assert.throws(() => store.define('tau', TAU), /defined twice/);
  assert.throws(() => store.get('nope'), /unknown key/);
  assert.throws(() => store.set('nope', 1), /unknown key/);
});

test('setMany stores several keys as one change: each listener once, one URL write', () => {
  const { store, writes, notices } = storeWith('');
  store.define('tau', TAU);
  store.define('query', QUERY);
  store.define('hidden', { ...QUERY, url: false });
  const seen = [];
  store.subscribe(['tau', 'query'], (value, key) => seen.push(`${key}=${value}`));
  store.subscribe('hidden', (value) => seen.push(`hidden=${value}`));
  assert.deepEqual(store.setMany([['tau', 2], ['query', 3]]), ['tau', 'query']);
  assert.deepEqual(seen, ['query=3'], 'a listener of both keys runs once, with the last change');
  assert.deepEqual(writes, ['?tau=2&query=3']);
  assert.deepEqual(store.setMany({ tau: 2, query: 3 }), [], 'nothing changed: no listener, no write');
  assert.equal(writes.length, 1);
  store.setMany([['hidden', 1], ['query', 99]]);
  assert.deepEqual(seen, ['query=3', 'hidden=1', 'query=7'], 'values are validated (99 is clamped to 7)');
  assert.equal(notices.length, 1);
  assert.throws(() => store.setMany([['nope', 1]]), /unknown key/);
});

test('a key repeated in the link is read from its first value, with a notice', () => {
  const { store, notices } = storeWith('?tau=2&tau=99&tau=3&tau=4');
  assert.equal(store.define('tau', TAU), 2);
  assert.equal(notices.length, 1);
  assert.match(notices[0], /tau 4 times \(2, 99, 3, …\); using the first, 2\./);
});

test('a figure\u2019s fit rule moves values that do not fit together: noticed from a link or an element, quiet from a control', () => {
  // A toy rule: the picked item must be one of the first `count` items.
  const rule = (values, { name }) => (values['toy.pick'] < values['toy.count'] ? [] : [{
    key: 'toy.pick', value: values['toy.count'] - 1, reason: `${name('toy.pick')} = ${values['toy.pick']} is past ${name('toy.count')}`,
  }]);
  const schemas = {
    'toy.count': { type: 'integer', min: 1, max: 8, default: 4 },
    'toy.pick': { type: 'integer', min: 0, max: 7, default: 0 },
  };
  const notices = [];
  const store = createStore({ search: '?toy.count=2&toy.pick=6', onNotice: (m) => notices.push(m), paramLabel: (p) => p.slice(4) });
  store.constrain('toy', rule);
  store.defineAll(schemas);
  assert.equal(store.get('toy.pick'), 1);
  assert.deepEqual(notices, ['The link asked for settings that do not fit together: pick = 6 is past count; using pick = 1, the nearest value that fits.']);

  const seen = [];
  store.subscribe(['toy.pick'], (value) => seen.push(value));
  store.setMany([['toy.count', 8], ['toy.pick', 7]]);
  assert.equal(store.get('toy.pick'), 7, 'values that fit are left alone');
  store.set('toy.count', 3); // a control: the pick follows, without a notice
  assert.equal(store.get('toy.pick'), 2);
  assert.deepEqual(seen, [7, 2], 'a moved key\u2019s listeners run');
  assert.equal(notices.length, 1);
  store.setMany([['toy.pick', 5]], { origin: 'This element' });
  assert.equal(store.get('toy.pick'), 2);
  assert.match(notices[1], /^This element asked for settings that do not fit together: pick = 5 is past count/);
});

test('defineAll writes the URL once when the link gave a value it could not keep, and not otherwise', () => {
  const clean = storeWith('?fig.tau=2&fig.query=3&utm=x');
  clean.store.defineAll({ 'fig.tau': TAU, 'fig.query': QUERY });
  assert.deepEqual(clean.writes, [], 'a link the page keeps as it is is not rewritten');

  const clamped = storeWith('?fig.tau=250&fig.query=2.5&utm=x');
  clamped.store.defineAll({ 'fig.tau': TAU, 'fig.query': QUERY });
  assert.deepEqual(clamped.writes, ['?fig.tau=100&utm=x'], 'clamped, refused (back to the default) and the host\'s own kept');

  const repeated = storeWith('?fig.tau=2&fig.tau=3');
  repeated.store.defineAll({ 'fig.tau': TAU });
  assert.deepEqual(repeated.writes, ['?fig.tau=2'], 'a repeated key keeps its first value');
});
