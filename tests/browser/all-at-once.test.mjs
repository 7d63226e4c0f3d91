// The "all tokens at once" figure, checked through what a learner sees: the three matrices
// with their shapes, row sums of 1, and the picked query outlined through all three.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, fitsOrScrollsInItsFrame, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();

function allAtOnceFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByRole('grid', { name: 'output O, queries by value features' }) });
  return {
    figure,
    query: figure.getByLabel('query token'),
    scores: figure.getByRole('grid', { name: 'scaled scores S, queries by keys' }),
    weights: figure.getByRole('grid', { name: 'weights A, queries by keys' }),
    output: figure.getByRole('grid', { name: 'output O, queries by value features' }),
    rowSum: figure.getByLabel('row sum of the picked query'),
    topKey: figure.getByLabel('largest weight on key'),
  };
}

async function cellValues(grid, row) {
  const names = await grid.getByRole('row').nth(row).getByRole('gridcell')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  return names.map(trailingNumber);
}

test('three matrices with their shapes: scores 8 × 8, weights 8 × 8, output 8 × 64 with feature columns', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  await view.figure.waitFor();
  assert.equal(await page.getByRole('heading', { level: 2, name: 'All tokens at once' }).count(), 1);

  assert.equal(await view.scores.getByRole('gridcell').count(), 64);
  assert.equal(await view.weights.getByRole('gridcell').count(), 64);
  assert.equal(await view.output.getByRole('gridcell').count(), 512);
  assert.equal(await view.output.getAttribute('aria-rowcount'), '8');
  assert.equal(await view.output.getAttribute('aria-colcount'), '64');

  const text = await view.figure.innerText();
  assert.match(text, /Scores S = Q Kᵀ \/ √dₖ\s+8 × 8 \(n × m\)/);
  assert.match(text, /softmax\(S\), row by row\s+8 × 8 \(n × m\)/);
  assert.match(text, /Output O = A V\s+8 × 64 \(n × dᵥ\)/);

  // Columns of the output are the value features, named.
  const first = await view.output.getByRole('gridcell').first().getAttribute('aria-label');
  assert.match(first, /^query “the” \(0\), feature code 1: /);
  assert.equal(await view.output.getByRole('gridcell', { name: /feature animate: / }).count(), 8);
  assert.deepEqual(problems, []);
});

test('by default the query is "it": its row is outlined in all three matrices, sums to 1 and peaks on "cat"', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  assert.equal(await view.query.inputValue(), '7');
  for (const grid of [view.scores, view.weights, view.output]) {
    const selected = grid.getByRole('row', { selected: true });
    assert.equal(await selected.count(), 1);
    assert.match(await selected.getAttribute('aria-label'), /^query “it” \(7\)/);
  }
  assert.equal(await view.rowSum.innerText(), '1.000');
  assert.match(await view.topKey.innerText(), /“cat” \(1\)/);
  const weights = await cellValues(view.weights, 7);
  assert.equal(weights.indexOf(Math.max(...weights)), 1, 'the largest weight of "it" is on "cat"');
  const scores = await cellValues(view.scores, 7);
  assert.equal(scores.indexOf(Math.max(...scores)), 1, 'and so is its largest score');
  assert.deepEqual(problems, []);
});

test('picking query 3 highlights row 3 in all three matrices, and its row sum reads 1.000', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  await view.query.selectOption('3');
  for (const grid of [view.scores, view.weights, view.output]) {
    const selected = grid.getByRole('row', { selected: true });
    assert.equal(await selected.count(), 1, 'exactly one row is outlined');
    assert.match(await selected.getAttribute('aria-label'), /^query “on” \(3\)/);
  }
  assert.equal(await view.rowSum.innerText(), '1.000');
  const weights = await cellValues(view.weights, 3);
  const sum = weights.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 0.002, `the cells of row 3 add up to 1 (got ${sum})`);
  await page.waitForFunction(() => location.search.includes('all-at-once.query=3'));
  assert.deepEqual(problems, []);
});

test('every row of the weights is printed with its sum, and every sum reads 1.000', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  const rowNames = await view.weights.getByRole('row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
  assert.equal(rowNames.length, 8);
  for (const name of rowNames) assert.match(name, /, row sum 1\.000$/);
  const printed = await view.weights.locator('text.heatmap-row-note').allTextContents();
  assert.deepEqual(printed, Array(8).fill('1.000'), 'the sums are printed beside the rows');
  for (let i = 0; i < 8; i += 1) {
    const sum = (await cellValues(view.weights, i)).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.002, `row ${i} adds up to ${sum}`);
  }
  assert.deepEqual(problems, []);
});

test('clicking a row in the output matrix picks that query', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  await view.output.getByRole('gridcell', { name: /^query “sat” \(2\), feature verb: / }).click();
  assert.equal(await view.query.inputValue(), '2');
  assert.match(await view.weights.getByRole('row', { selected: true }).getAttribute('aria-label'), /“sat” \(2\)/);
  assert.deepEqual(problems, []);
});

test('a link restores the picked query; an unusable one falls back with a notice', async () => {
  const restored = await session.openPage({ search: '?all-at-once.query=5' });
  let view = allAtOnceFigure(restored.page);
  assert.equal(await view.query.inputValue(), '5');
  assert.match(await view.scores.getByRole('row', { selected: true }).getAttribute('aria-label'), /“mat” \(5\)/);
  assert.deepEqual(restored.problems, []);

  // Past the largest a sentence may have (16 tokens), the link gets a notice; past this
  // sentence's last token, the query moves to its last pronoun, "it", also its last token.
  const clamped = await session.openPage({ search: '?all-at-once.query=20' });
  view = allAtOnceFigure(clamped.page);
  assert.equal(await view.query.inputValue(), '7', 'clamped to the last token');
  const notices = await clamped.page.getByRole('status', { name: 'Notes about the link' }).innerText();
  assert.match(notices, /all-at-once\.query = 20/);
  assert.deepEqual(clamped.problems, []);
});

test('at 375 px the page does not scroll sideways; the wide output scrolls inside the figure', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const view = allAtOnceFigure(page);
  const scroller = view.figure.getByRole('region', { name: /output matrix/ });
  const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  assert.ok(clientWidth <= 375, `the scroll box is ${clientWidth}px wide`);
  assert.ok(scrollWidth > clientWidth, 'the output matrix keeps readable cells and scrolls inside its box');
  for (const grid of [view.scores, view.weights]) {
    assert.ok(await fitsOrScrollsInItsFrame(grid, 375), 'a square map fits the screen or scrolls inside its frame');
  }
  assert.deepEqual(problems, []);
});

test('one score matrix, one colour scale: lookup and all-at-once colour S alike, with the same legend; a hovered cell is outlined', async () => {
  const { page, problems } = await session.openPage();
  const view = allAtOnceFigure(page);
  const lookupScores = page.locator('#figure-lookup').getByRole('grid', { name: 'scaled scores, queries by keys' });
  const fills = (grid) => grid.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('fill')));
  assert.deepEqual(await fills(view.scores), await fills(lookupScores), 'every cell of S has one colour on the page');
  const legendOf = (grid) => grid.locator('xpath=..').getByRole('note').getAttribute('aria-label');
  assert.equal(await legendOf(view.scores), await legendOf(lookupScores));
  assert.match(await legendOf(view.scores), /^colour legend: scaled score from −?\d+(\.\d\d)? \(dark purple\) to \d+(\.\d\d)? \(yellow\)$/);

  // Pointing at a cell outlines it (not only the readout changes).
  const cell = view.scores.getByRole('gridcell').nth(7 * 8 + 1);
  await cell.hover();
  const ring = await view.scores.evaluate((svg) => {
    const r = svg.querySelector('.heatmap-hover-ring');
    const c = svg.querySelector('.heatmap-cell-hovered');
    return { visible: r.getAttribute('visibility'), x: Number(r.getAttribute('x')), cellX: Number(c?.getAttribute('x')), row: c?.dataset.row, col: c?.dataset.col };
  });
  assert.equal(ring.visible, 'visible');
  assert.deepEqual([ring.row, ring.col], ['7', '1']);
  assert.ok(Math.abs(ring.x - ring.cellX - 1) < 1e-9, 'the outline sits on the hovered cell');
  await page.mouse.move(0, 0);
  assert.equal(await view.scores.locator('.heatmap-hover-ring').getAttribute('visibility'), 'hidden');

  // The why-scale marker is solid and neutral, unlike the dashed orange "scaled" curve.
  const styles = await page.locator('#figure-why-scale').evaluate((figure) => {
    const marker = figure.querySelector('.plot-marker line');
    const scaled = figure.querySelector('path.plot-series-1');
    const m = getComputedStyle(marker);
    const s = getComputedStyle(scaled);
    return { markerStroke: m.stroke, markerDash: m.strokeDasharray, scaledStroke: s.stroke, scaledDash: s.strokeDasharray };
  });
  assert.notEqual(styles.markerStroke, styles.scaledStroke, JSON.stringify(styles));
  assert.equal(styles.markerDash, 'none', JSON.stringify(styles));
  assert.deepEqual(problems, []);
});
