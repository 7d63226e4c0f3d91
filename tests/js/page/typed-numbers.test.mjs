// The page's one rule for typed numbers (web/src/lib/controls/number-field.js) and the cost
// figure's rule for settings that must fit together (web/src/figures/cost/settings.js): both
// plain JavaScript, tested under node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCount, readCount, readNumber } from '../../../web/src/lib/controls/number-field.js';
import { SETTINGS, nearestDivisor, resolveSettings } from '../../../web/src/figures/cost/settings.js';
import { createStore } from '../../../web/src/lib/state/store.js';

test('a decimal point or a decimal comma, a real minus sign; no thousands separators, no other notations', () => {
  const cases = [
    ['1.5', 1.5, ''], ['1,5', 1.5, ''], [' −2,25 ', -2.25, ''], ['.5', 0.5, ''], ['1e-3', 0.001, ''], ['+4', 4, ''],
    ['', null, 'empty'], ['  ', null, 'empty'],
    ['1,000,000', null, 'separators'], ['1.000,5', null, 'separators'], ['1 000', null, 'separators'], ['1_000', null, 'separators'],
    ['abc', null, 'unreadable'], ['NaN', null, 'unreadable'], ['Infinity', null, 'unreadable'], ['1e400', null, 'unreadable'],
    ['0x10', null, 'unreadable'], ['0b11', null, 'unreadable'], ['½', null, 'unreadable'], ['<b>1</b>', null, 'unreadable'], [',', null, 'unreadable'],
  ];
  for (const [text, value, problem] of cases) assert.deepEqual(readNumber(text), { value, problem }, JSON.stringify(text));
});

test('a count refuses any comma (it would be a decimal mark) and any separator, with a message', () => {
  assert.equal(parseCount('1000'), 1000);
  assert.equal(parseCount('1e3'), 1000);
  for (const text of ['1,5', '1,000', '1 000', '1,000,000']) {
    const { value, problem } = readCount(text);
    assert.ok(Number.isNaN(value), text);
    assert.match(problem, /type 1000/, text);
  }
  assert.ok(Number.isNaN(parseCount('0o7')));
  assert.equal(readCount('').problem, '', 'an empty count is left to the core to name');
});

test('cost: h moves to the nearest divisor of d_model; d_model, n and m shrink until every count is exact', () => {
  const defaults = Object.fromEntries(Object.entries(SETTINGS).map(([key, schema]) => [key, schema.default]));
  const moves = (over) => Object.fromEntries(resolveSettings({ ...defaults, ...over }).map((m) => [m.key, m.value]));
  assert.deepEqual(moves({}), {});
  assert.deepEqual(moves({ 'cost.h': 76 }), { 'cost.h': 64 });
  assert.deepEqual(moves({ 'cost.d': 7 }), { 'cost.h': 7 });
  assert.deepEqual(moves({ 'cost.d': 769, 'cost.h': 9 }), { 'cost.h': 1 }, '769 is prime');
  assert.equal(nearestDivisor(768, 10), 8, 'a tie goes to the smaller');
  const EXACT = 2n ** 53n;
  const fits = ({ n, m, d, h, b }) => {
    const [N, M, D, H, B] = [n, m, d, h, b].map(BigInt);
    return N * M * D <= EXACT && 2n * (N + M) * D * D <= EXACT && N * M * B * H <= EXACT && 4n * D * D * B <= EXACT;
  };
  for (const over of [{ 'cost.n': 1e12 }, { 'cost.n': 1e12, 'cost.m': 1e12, 'cost.same': false }, { 'cost.n': 1e12, 'cost.m': 3, 'cost.same': false },
    { 'cost.d': 1e12, 'cost.h': 1e12, 'cost.bytes': '8' }]) {
    const asked = { ...defaults, ...over };
    const v = { ...asked, ...moves(over) };
    const same = v['cost.same'];
    const layer = (cap) => ({
      n: Math.min(asked['cost.n'], cap), m: Math.min(same ? asked['cost.n'] : asked['cost.m'], cap),
      d: v['cost.d'], h: v['cost.h'], b: Number(v['cost.bytes']),
    });
    const cap = Math.max(v['cost.n'], same ? v['cost.n'] : v['cost.m']);
    assert.equal(v['cost.d'] % v['cost.h'], 0, JSON.stringify(over));
    assert.deepEqual([layer(cap).n, layer(cap).m], [v['cost.n'], same ? v['cost.n'] : v['cost.m']], JSON.stringify(over));
    assert.ok(fits(layer(cap)), `${JSON.stringify(v)} fits`);
    assert.ok(!fits(layer(cap + 1)), `${JSON.stringify(v)}: a length one longer would not`);
  }
});

test('cost: "same as n" is an on/off setting; links that said yes or no still read', () => {
  const open = (search) => {
    const notices = [];
    const written = [];
    const state = createStore({ search, onNotice: (text) => notices.push(text), writeSearch: (searchNow) => written.push(searchNow()) });
    state.constrain('cost', resolveSettings);
    state.defineAll(SETTINGS);
    return { state, notices, written };
  };
  assert.equal(open('').state.get('cost.same'), true);
  for (const [search, same] of [['?cost.same=no', false], ['?cost.same=off', false], ['?cost.same=yes', true], ['?cost.same=on', true]]) {
    const { state, notices } = open(search);
    assert.equal(state.get('cost.same'), same, search);
    assert.deepEqual(notices, [], `${search} is read without a note`);
  }
  const { state, written } = open('');
  state.set('cost.same', false);
  assert.equal(written.at(-1), '?cost.same=off');
  const maybe = open('?cost.same=maybe');
  assert.equal(maybe.state.get('cost.same'), true);
  assert.match(maybe.notices[0], /cost\.same = maybe, which is not on or off; using on/);
});
