// The README's table of figure settings against the settings each figure module exports
// (SETTINGS, at module level): every figure is listed, in the page's order, with exactly its
// settings in order, and every range or list of choices the table gives is the schema's.
// The figure modules import their CSS and C++ text, so they are bundled with esbuild first.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function figureModules() {
  const result = await esbuild.build({
    entryPoints: [`${ROOT}web/src/figures/index.js`], bundle: true, format: 'esm', platform: 'neutral',
    write: false, logLevel: 'silent', loader: { '.css': 'empty', '.hpp': 'text' }, mainFields: ['module', 'main'],
  });
  const source = result.outputFiles[0].text;
  return (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)).FIGURES;
}

/** The README's settings table: [{ figure, settings: [{ name, detail }] }] in row order. */
async function readmeTable() {
  const readme = await readFile(`${ROOT}README.md`, 'utf8');
  const start = readme.indexOf('| figure | settings |');
  assert.ok(start >= 0, 'the README has a "| figure | settings |" table');
  const rows = readme.slice(start).split('\n').slice(2).filter((line) => line.startsWith('|'));
  const end = rows.findIndex((line) => !/^\| `[\w-]+` \|/.test(line));
  return rows.slice(0, end < 0 ? rows.length : end).map((line) => {
    const [, figure, cell] = /^\| `([\w-]+)` \| (.*) \|$/.exec(line);
    // Each setting: `name` optionally followed by "(detail)"; "`a` … `b`" names a run of settings.
    const settings = [];
    for (const match of cell.matchAll(/`([\w-]+)`( … `([\w-]+)`)?(?: \(((?:[^()`]|`[^`]*`)*)\))?/g)) {
      settings.push({ name: match[1], through: match[3] ?? null, detail: match[4] ?? null });
    }
    return { figure, settings: cell.trim() === 'none' ? [] : settings };
  });
}

/** Names a README row lists, with "a … b" expanded over the schema's own order. */
function listedNames(settings, keys) {
  const names = [];
  for (const { name, through } of settings) {
    if (!through) { names.push(name); continue; }
    const from = keys.indexOf(name);
    const to = keys.indexOf(through);
    assert.ok(from >= 0 && to > from, `"${name} … ${through}" is a run of settings`);
    names.push(...keys.slice(from, to + 1));
  }
  return names;
}

/** Checks a "(…)" detail against a schema: "0–7", "0/1", "on or off" or a list of choices. */
function checkDetail(name, detail, schema) {
  const head = detail.split(':')[0].trim();
  if (head === 'on or off' || schema.type === 'boolean') {
    assert.equal(head === 'on or off' && schema.type, 'boolean', `${name}: "on or off" is an on/off setting, and an on/off setting reads "on or off"`);
    return;
  }
  const range = /^(-?[\d.]+)–(-?[\d.]+)$/.exec(head);
  if (range) {
    assert.deepEqual([schema.min, schema.max], [Number(range[1]), Number(range[2])], `${name}: range ${head}`);
    return;
  }
  const pair = /^([\w-]+)\/([\w-]+)$/.exec(head);
  const choices = pair ? [pair[1], pair[2]] : head.includes(', ') ? head.split(', ') : null;
  if (!choices) return; // prose only, e.g. "`h-i`: head i of h"
  if (schema.type === 'enum') assert.deepEqual(choices, schema.values, `${name}: choices ${head}`);
  else assert.deepEqual([schema.min, schema.max], choices.map(Number), `${name}: ${head}`);
}

test('the README lists every figure with exactly the settings its module exports', async () => {
  const figures = await figureModules();
  const table = await readmeTable();
  assert.deepEqual(table.map((row) => row.figure), Object.keys(figures), 'one row per figure, in the page\u2019s order');
  for (const { figure, settings } of table) {
    const schemas = figures[figure].SETTINGS;
    assert.ok(schemas && typeof schemas === 'object', `${figure} exports SETTINGS`);
    const keys = Object.keys(schemas).map((key) => {
      assert.ok(key.startsWith(`${figure}.`), `${figure}: ${key} is prefixed with the figure's name`);
      return key.slice(figure.length + 1);
    });
    assert.deepEqual(listedNames(settings, keys), keys, `${figure}: the README names its settings in order`);
    for (const { name, detail } of settings) if (detail) checkDetail(`${figure}.${name}`, detail, schemas[`${figure}.${name}`]);
  }
});
