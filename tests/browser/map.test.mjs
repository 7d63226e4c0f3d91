// The "Reading an attention map" figure: four heads of the toy layer at h = 4, each cell's
// exact weight on hover and on keyboard focus, a query picker that outlines the same row in
// every map, and a caption that keeps the paper's hedge.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLab } from '../js/load-lab.mjs';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();
const lab = await loadLab();
const toy = lab.toySentence();
const core = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4).heads.map((head) => head.weights);

function mapFigure(page) {
  const figure = page.locator('#figure-map');
  return {
    figure,
    query: figure.getByLabel('query row to outline'),
    grids: figure.getByRole('grid'),
    grid: (job) => figure.getByRole('grid', { name: new RegExp(job) }),
  };
}

/** The visible readout of a grid: the element its aria-describedby points at. */
async function readoutOf(grid) {
  const id = await grid.getAttribute('aria-describedby');
  return grid.page().locator(`[id="${id}"]`);
}

test('four maps, one per head, each named by its job, and the caption keeps the hedge', async () => {
  const { page, problems } = await session.openPage();
  const view = mapFigure(page);
  assert.equal(await page.getByRole('heading', { level: 2, name: 'Reading an attention map' }).count(), 1);
  assert.equal(await view.grids.count(), 4);
  for (const [s, job] of Array.from(toy.headJobs).entries()) {
    assert.equal(await view.grid(`^head ${s} of 4, built for “${job}”`).count(), 1, `head ${s}: ${job}`);
    assert.equal(await view.grid(`^head ${s} of 4`).getByRole('gridcell').count(), 64);
  }
  const caption = view.figure.locator('figcaption');
  assert.match(await caption.innerText(), /the weights, not an explanation/);
  // The paper's own words are marked as quotations.
  const quoted = await caption.locator('q').allInnerTexts();
  assert.ok(quoted.includes('apparently involved in'), `quotations: ${quoted}`);
  assert.ok(quoted.includes('seem related to'), `quotations: ${quoted}`);
  assert.deepEqual(problems, []);
});

test('hovering a cell shows its exact weight, equal to its accessible name and to the core', async () => {
  const { page, problems } = await session.openPage();
  const view = mapFigure(page);
  const grid = view.grid('pronoun → animate');
  const readout = await readoutOf(grid);
  assert.match(await readout.innerText(), /Point at, tap or tab/);

  const cell = grid.getByRole('gridcell', { name: /^query “it” \(7\) → key “cat” \(1\): / });
  await cell.hover();
  const shown = await readout.innerText();
  assert.match(shown, /^query “it” \(7\) → key “cat” \(1\): \d\.\d{4}$/);
  const name = await cell.getAttribute('aria-label');
  assert.equal(trailingNumber(shown), trailingNumber(name), `readout "${shown}" vs name "${name}"`);
  assert.equal(trailingNumber(shown).toFixed(4), core[1].data[7 * 8 + 1].toFixed(4), 'the core computes the same weight');
  assert.ok(trailingNumber(shown) > 0.99, '"it" → "cat" carries nearly all the weight');

  // Another head, another cell: "sat" → "cat" in the head built for verbs and relations.
  const other = view.grid('verb or relation → noun');
  const otherCell = other.getByRole('gridcell', { name: /^query “sat” \(2\) → key “cat” \(1\): / });
  await otherCell.hover();
  const otherShown = await (await readoutOf(other)).innerText();
  assert.equal(trailingNumber(otherShown), trailingNumber(await otherCell.getAttribute('aria-label')));
  assert.equal(trailingNumber(otherShown).toFixed(4), core[2].data[2 * 8 + 1].toFixed(4));
  assert.deepEqual(problems, []);
});

test('focusing a cell from the keyboard shows its exact weight too', async () => {
  const { page, problems } = await session.openPage();
  const view = mapFigure(page);
  const grid = view.grid('previous word');
  const readout = await readoutOf(grid);
  // Tab from the picker into the maps: the first map is one tab stop, then the second, …
  await view.query.focus();
  let name = null;
  for (let i = 0; i < 8 && !name?.startsWith('query'); i += 1) {
    await page.keyboard.press('Tab');
    const inside = await grid.evaluate((g) => g.contains(document.activeElement));
    if (inside) name = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  }
  assert.ok(name, 'Tab reaches a cell of the "previous word" map');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  const focusedName = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  const focused = await page.evaluate(() => ({ row: Number(document.activeElement.dataset.row), col: Number(document.activeElement.dataset.col) }));
  const shown = await readout.innerText();
  assert.equal(shown, focusedName, 'the readout repeats the focused cell\'s name');
  // A weight under 10⁻⁴ is written with its power of ten (1.93e−6).
  assert.match(shown, /^query “.+” \(\d\) → key “.+” \(\d\): (\d\.\d{4}|\d\.\d+e−\d+)$/);
  const value = Number(shown.split(': ').pop().replace('\u2212', '-'));
  assert.ok(Math.abs(value - core[3].data[focused.row * 8 + focused.col]) < 5e-5, `${shown} against the core`);
  assert.deepEqual(problems, []);
});

test('the query picker outlines the same row in all four maps and reads each head\'s choice', async () => {
  const { page, problems } = await session.openPage();
  const view = mapFigure(page);
  assert.equal(await view.query.inputValue(), '7');
  const selected = view.figure.getByRole('row', { selected: true });
  assert.equal(await selected.count(), 4);
  for (let i = 0; i < 4; i += 1) assert.equal(await selected.nth(i).getAttribute('aria-label'), 'query “it” (7)');
  assert.match(await view.figure.innerText(), /Row “it” \(7\): largest weight 1\.000 on “cat” \(1\)/);
  assert.match(await view.figure.innerText(), /Row “it” \(7\): spread evenly, 0\.125 on every key/);

  await view.query.selectOption('2');
  for (let i = 0; i < 4; i += 1) assert.equal(await selected.nth(i).getAttribute('aria-label'), 'query “sat” (2)');
  assert.match(await view.figure.innerText(), /Row “sat” \(2\): largest weight 0\.927 on “cat” \(1\)\./);
  assert.match(await view.figure.innerText(), /Row “sat” \(2\): largest weight 0\.474 on “cat” \(1\) and “mat” \(5\)\./, 'a tie names both keys');
  await page.waitForFunction(() => location.search.includes('map.query=2'));

  // Clicking a cell picks its row as well.
  await view.grid('same word').getByRole('gridcell', { name: /^query “mat” \(5\) → key “the” \(0\)/ }).click();
  assert.equal(await view.query.inputValue(), '5');
  assert.deepEqual(problems, []);
});

test('the four maps fit a 375 px phone', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const view = mapFigure(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  for (let i = 0; i < 4; i += 1) {
    const box = await view.grids.nth(i).boundingBox();
    assert.ok(box.width <= 375 && box.width > 250, `map ${i} is ${box.width}px wide`);
  }
  assert.deepEqual(problems, []);
});

test('the heads and map embeds fit, or scroll inside their frames, at every width from 320 to 1280 px', async () => {
  // Every 32 px: a map either shows whole or scrolls sideways inside its own frame, a named tab
  // stop, and the document itself never gets wider than the viewport.
  const scrolled = new Set();
  for (const name of ['heads', 'heads&k=3', 'map']) {
    const { page, problems } = await session.openPage({ search: `embed.html?figure=${name}`, contextOptions: { viewport: { width: 320, height: 800 } } });
    for (let width = 320; width <= 1280; width += 32) {
      await page.setViewportSize({ width, height: 800 });
      // The maps refit in the ResizeObserver step of the next frame (lib/charts/fit.js).
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const seen = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
        maps: [...document.querySelectorAll('.heatmap-frame svg')].filter((svg) => svg.getBoundingClientRect().width > 0).map((svg) => {
          const box = svg.getBoundingClientRect();
          const frame = svg.closest('.heatmap-frame');
          const edges = frame.getBoundingClientRect();
          return {
            fits: box.left >= 0 && box.right <= window.innerWidth + 0.5,
            frameFits: edges.left >= 0 && edges.right <= window.innerWidth + 0.5,
            scrolls: frame.classList.contains('heatmap-frame-scrolls') && frame.scrollWidth > frame.clientWidth
              && getComputedStyle(frame).overflowX !== 'visible' && getComputedStyle(frame).overflowX !== 'hidden',
            named: frame.closest('[role=region]')?.getAttribute('tabindex') === '0'
              && /scrolls sideways/.test(frame.closest('[role=region]')?.getAttribute('aria-label') ?? ''),
            // The map says itself when it is wider than its frame (no observer watches it):
            // the frame is a tab stop exactly while the map is wider than it, by any amount.
            overflowing: frame.querySelector('.heatmap-svg').getBoundingClientRect().width > edges.width + 0.01,
            tabStop: frame.getAttribute('tabindex') === '0',
          };
        }),
      }));
      assert.ok(seen.page <= seen.viewport, `${name} at ${width} px: the document is ${seen.page - seen.viewport} px wider than the viewport`);
      assert.ok(seen.maps.length > 0, `${name} at ${width} px: maps drawn`);
      seen.maps.forEach((map, i) => {
        assert.ok(map.fits || (map.frameFits && map.scrolls && map.named),
          `${name} at ${width} px: map ${i} neither fits nor scrolls inside a named frame (${JSON.stringify(map)})`);
        assert.equal(map.tabStop, map.overflowing, `${name} at ${width} px: map ${i} is a tab stop ${map.tabStop ? 'but fits' : 'but overflows'} (${JSON.stringify(map)})`);
        if (map.overflowing) scrolled.add(`${name} at ${width} px`);
      });
    }
    assert.deepEqual(problems, []);
  }
  assert.ok(scrolled.size > 0, 'no map scrolled at any width: the tab-stop case went untested');
});
