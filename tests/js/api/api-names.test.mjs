// One list of the JS API's names, three places that must agree: the object createAttentionLab
// returns, the table of cases (api-cases.mjs, which the leak tests, the fuzz and the soak read),
// and the function table under "## The JS API" in docs/contributing.md. A function added to one
// and not the others fails here, naming what is missing where.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_CASES, API_NAMES } from './api-cases.mjs';
import { loadLab } from '../load-lab.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let lab;
before(async () => {
  lab = await loadLab();
});

/** The names the "| function | returns |" table of docs/contributing.md's JS API section lists. */
async function documentedNames() {
  const text = await readFile(`${ROOT}docs/contributing.md`, 'utf8');
  const start = text.search(/^## The JS API/m);
  assert.ok(start >= 0, 'docs/contributing.md has a "## The JS API" section');
  const next = text.slice(start + 1).search(/^## /m);
  const section = next < 0 ? text.slice(start) : text.slice(start, start + 1 + next);
  const tableStart = section.indexOf('| function | returns |');
  assert.ok(tableStart >= 0, 'its section has a "| function | returns |" table');
  const rows = section.slice(tableStart).split('\n').slice(2);
  const names = [];
  for (const line of rows) {
    if (!line.startsWith('|')) break;
    const first = line.split(' | ')[0];
    // Each code span of the first cell names one: `attention(Q, K, V, …)`, `limits`.
    for (const [, name] of first.matchAll(/`([A-Za-z]\w*)/g)) names.push(name);
  }
  return names;
}

const missing = (from, list) => from.filter((name) => !list.includes(name));

test('the API object, the table of cases and docs/contributing.md list the same names', async () => {
  const api = Object.keys(lab);
  const documented = await documentedNames();
  assert.deepEqual({
    'in the API, not in api-cases.mjs': missing(api, API_NAMES),
    'in api-cases.mjs, not in the API': missing(API_NAMES, api),
    'in the API, not in docs/contributing.md': missing(api, documented),
    'in docs/contributing.md, not in the API': missing(documented, api),
  }, {
    'in the API, not in api-cases.mjs': [],
    'in api-cases.mjs, not in the API': [],
    'in the API, not in docs/contributing.md': [],
    'in docs/contributing.md, not in the API': [],
  });
  assert.equal(new Set(documented).size, documented.length, `a name listed twice: ${documented}`);
});

test('every entry of the table of cases is complete', () => {
  for (const name of API_NAMES) {
    const c = API_CASES[name];
    assert.ok(Array.isArray(c.failing), `${name}: failing is a list`);
    if (c.failing.length === 0) assert.ok(c.cannotFail, `${name}: no failing call, and no reason given (cannotFail)`);
    for (const f of c.failing) assert.ok(f.message instanceof RegExp && typeof f.args === 'function', `${name}: a failing call needs args and a message`);
    assert.ok(c.good && (typeof c.good.args === 'function' || typeof c.good.value === 'function'), `${name}: a good call`);
    assert.ok(c.good.expect || c.good.check, `${name}: the good call's reference result`);
    assert.equal(typeof lab[name] === 'function', typeof c.good.args === 'function', `${name}: args for functions, value otherwise`);
    assert.ok(typeof c.fuzz === 'function' || c.noFuzz, `${name}: fuzz arguments, or why not (noFuzz)`);
  }
});
