// The README's generated tables (scripts/readme-tables.mjs) must say what the build makes:
// the download sizes within 1 KiB of a fresh dist/, and each embed's height at 375, 768 and
// 1280 px within 5 % of what it measures now. When this fails, run
//   bash scripts/dist.sh && node scripts/readme-tables.mjs --heights

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildDist } from '../../scripts/build-dist.mjs';
import {
  EMBED_HEIGHTS_PATH, EMBED_WIDTHS, figureNames, heightTable, measureEmbedHeights, readBlock, sizeTables,
} from '../../scripts/readme-tables.mjs';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const session = useBrowser();
let distDir = null;
let readme = null;

before(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
  await buildDist({ from: WEB_ROOT, out: distDir });
  readme = await readFile(join(ROOT, 'README.md'), 'utf8');
});

after(async () => {
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

const rows = (table) => table.split('\n').filter((line) => line.startsWith('|')).map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
const UNIT = /^(\d+(?:\.\d+)?) (KiB|px)$/;

/**
 * Compares two tables cell by cell: text exactly, "N KiB" / "N px" within `close(documented,
 * measured)`. Returns a list of differences, each naming its row.
 */
function differences(documented, measured, close) {
  const found = [];
  const a = rows(documented);
  const b = rows(measured);
  if (a.length !== b.length) found.push(`${a.length} rows documented, ${b.length} built`);
  for (let r = 0; r < Math.min(a.length, b.length); r += 1) {
    for (let c = 0; c < Math.max(a[r].length, b[r].length); c += 1) {
      const [x, y] = [a[r][c] ?? '', b[r][c] ?? ''];
      const [mx, my] = [UNIT.exec(x), UNIT.exec(y)];
      const same = mx && my ? mx[2] === my[2] && close(Number(mx[1]), Number(my[1]), mx[2]) : x === y;
      if (!same) found.push(`${b[r][0]}: README says "${x}", the build gives "${y}"`);
    }
  }
  return found;
}

test('the README\'s download sizes are those of the build, within 1 KiB', async () => {
  const sizes = JSON.parse(await readFile(join(distDir, 'sizes.json'), 'utf8'));
  const formulas = ((await readFile(join(distDir, 'index.html'), 'utf8')).match(/<math\b/g) ?? []).length;
  const stale = differences(readBlock(readme, 'sizes'), sizeTables(sizes, formulas), (doc, built) => Math.abs(doc - built) <= 1.0);
  assert.deepEqual(stale, [], 'run: bash scripts/dist.sh && node scripts/readme-tables.mjs');
});

test('the README\'s embed heights at 375, 768 and 1280 px are within 5 % of the real ones', async () => {
  const figures = figureNames(await readFile(join(WEB_ROOT, 'index.html'), 'utf8'));
  assert.ok(figures.length >= 11);
  const heights = await measureEmbedHeights(session.browser, session.url, figures);
  for (const figure of figures) {
    for (const width of EMBED_WIDTHS) assert.ok(heights[figure][width] > 300, `${figure} at ${width} px: ${heights[figure][width]} px`);
  }
  const stale = differences(readBlock(readme, 'heights'), heightTable(heights), (doc, real) => Math.abs(doc - real) <= 0.05 * real);
  assert.deepEqual(stale, [], 'run: bash scripts/dist.sh && node scripts/readme-tables.mjs --heights');
});

test('the Embed code panel sizes frames from the README\'s heights: the tallest of the three widths', async () => {
  const kept = JSON.parse(await readFile(EMBED_HEIGHTS_PATH, 'utf8'));
  const table = rows(readBlock(readme, 'heights')).slice(2);
  assert.deepEqual(Object.keys(kept), table.map(([figure]) => figure.replaceAll('`', '')), 'the same figures, in page order');
  for (const [figure, ...cells] of table) {
    const name = figure.replaceAll('`', '');
    assert.deepEqual(EMBED_WIDTHS.map((w) => kept[name][String(w)]), cells.map((c) => Number(UNIT.exec(c)[1])), `${name}: the same heights`);
  }

  // The panel's iframe code at the defaults asks for at least the tallest of them.
  const { page, problems } = await session.openPage({ contextOptions: { ...DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] } });
  const name = 'by-hand';
  const figure = page.locator(`[data-figure="${name}"]`);
  await figure.getByRole('button', { name: 'Embed code' }).click();
  const code = await figure.getByLabel('As an iframe, with the script that sizes it').inputValue();
  const height = Number(/height="(\d+)"/.exec(code)[1]);
  const tallest = Math.max(...Object.values(kept[name]));
  assert.ok(height >= tallest, `${name}: the iframe asks for ${height} px, at least the tallest measured, ${tallest} px`);
  assert.deepEqual(problems, []);
});
