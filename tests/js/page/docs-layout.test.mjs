// docs/contributing.md's layout table against the tree: every folder of the repository has a
// row (or a row of a file in it), every script in scripts/ is named in the scripts row, and the
// rows of the page's shared primitives and of the figures' folders name every module in them,
// so a file added without a word in the docs fails here.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// Not the project's own source: build output, packages, git, scratch, and the fuzzer's seeds.
const SKIP = new Set(['.git', 'build', 'dist', 'node_modules', '.tmp', 'tests/fuzz/corpus']);
// Rows that must name each file in their folder.
const NAMED = [
  'scripts', 'web/src/figures', 'web/src/figures/by-hand', 'web/src/figures/cost', 'web/src/figures/heads',
  'web/src/figures/learn', 'web/src/figures/measured', 'web/src/figures/why-scale', 'web/src/lib/charts',
  'web/src/lib/charts/heatmap', 'web/src/lib/controls', 'web/src/lib/dom', 'web/src/lib/export',
  'web/src/lib/format', 'web/src/lib/lms', 'web/src/lib/sentence', 'web/src/lib/state', 'cpp/bench', 'tests/fuzz',
];

/** Every folder under the root that holds a file, relative, with the files directly in it. */
function folders(dir = '') {
  const entries = readdirSync(join(ROOT, dir), { withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  const found = files.length && dir ? [{ dir, files }] : [];
  for (const e of entries) {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory() && !SKIP.has(path) && !SKIP.has(e.name)) found.push(...folders(path));
  }
  return found;
}

/** The layout table's rows: [{ paths: the path cell, text: the whole row }]. */
function layoutRows() {
  const text = readFileSync(join(ROOT, 'docs/contributing.md'), 'utf8');
  const start = text.indexOf('## Layout');
  assert.ok(start >= 0, 'docs/contributing.md has a "## Layout" section');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  return section.split('\n').filter((line) => line.startsWith('| `')).map((line) => ({ paths: line.split(' | ')[0], text: line }));
}

test('every folder of the tree has a row in the layout table of docs/contributing.md', () => {
  const rows = layoutRows();
  const missing = folders().map(({ dir }) => dir).filter((dir) => !rows.some((row) => row.paths.includes(`\`${dir}/`)));
  assert.deepEqual(missing, [], 'folders without a row');
});

test('the rows of scripts/, the figures\' folders and the shared primitives name every file in them', () => {
  const rows = layoutRows();
  const tree = new Map(folders().map(({ dir, files }) => [dir, files]));
  for (const dir of NAMED) {
    const row = rows.find((r) => r.paths === `| \`${dir}/\``);
    assert.ok(row, `a row for ${dir}/`);
    assert.ok(tree.has(dir), `${dir}/ is in the tree`);
    // A figure folder's index.js (its settings and mount) is said once, in the figures row.
    const implied = (file) => file === 'index.js' && dir.startsWith('web/src/figures/');
    const unnamed = tree.get(dir).filter((file) => !implied(file) && !row.text.includes(`\`${file}\``) && !row.text.includes(`\`${dir}/${file}\``));
    assert.deepEqual(unnamed, [], `${dir}/: files its row does not name`);
  }
});
