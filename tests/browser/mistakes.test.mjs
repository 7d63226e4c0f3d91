// The "Four ways to get it wrong" figure: each mistake is picked from a labelled radio group
// and shown beside the correct computation. The numbers checked are the ones printed on the
// page: entropies, largest weights, row and column sums, the divisors and the cells' names.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLab } from '../js/load-lab.mjs';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();
const lab = await loadLab();
const toy = lab.toySentence();

function mistakesFigure(page) {
  const figure = page.locator('#figure-mistakes');
  const side = (name) => {
    const group = figure.getByRole('group', { name, exact: true });
    return {
      group,
      title: group.locator('.panel-title'),
      grid: group.getByRole('grid'),
      entropy: group.getByLabel('entropy of the “it” row'),
      largest: group.getByLabel('largest weight of the “it” row'),
      rowSums: group.getByLabel('row sums'),
      colSums: group.getByLabel('column sums'),
      output: group.getByLabel('output row of “it”'),
    };
  };
  return {
    figure,
    choices: figure.getByRole('group', { name: 'Make this mistake' }),
    modelWidth: figure.getByLabel(/divide by √d_model instead of √d/),
    wrongAxis: figure.getByLabel(/softmax over the wrong axis/),
    noScale: figure.getByLabel(/no scaling at all/),
    swapped: figure.getByLabel(/keys and values swapped/),
    head: figure.getByLabel('head to show'),
    right: side('correct'),
    wrong: side('with the mistake'),
    consequence: figure.getByLabel('what goes wrong'),
  };
}

const numbers = (text) => text.trim().split(/\s+/).map(Number);
const nats = (text) => Number.parseFloat(text);

async function cellWeights(grid) {
  const names = await grid.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  return names.map(trailingNumber);
}

test('four labelled mistakes; (a) is picked first and shown beside the correct version', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  assert.equal(await page.getByRole('heading', { level: 2, name: 'Four ways to get it wrong' }).count(), 1);
  assert.equal(await view.choices.getByRole('radio').count(), 4);
  assert.equal(await view.modelWidth.isChecked(), true);
  assert.equal(await view.right.grid.getByRole('gridcell').count(), 64);
  assert.equal(await view.wrong.grid.getByRole('gridcell').count(), 64);
  assert.equal(await view.head.isVisible(), true, 'the head picker belongs to mistake (a)');
  assert.match(await view.figure.locator('figcaption').innerText(), /correct computation beside the broken one/);
  assert.deepEqual(problems, []);
});

test('(a) dividing by √d_model with 4 heads flattens the "it" row: a larger entropy than correct', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  // The divisors are read back from the core's scores: √(64/4) = 4 against √64 = 8.
  assert.match(await view.right.title.innerText(), /÷ 4\.000 = √d/);
  assert.match(await view.wrong.title.innerText(), /÷ 8\.000 = √d_model/);
  const right = nats(await view.right.entropy.innerText());
  const wrong = nats(await view.wrong.entropy.innerText());
  assert.ok(wrong > right, `entropy with the mistake ${wrong} > correct ${right}`);
  assert.ok(Number(await view.wrong.largest.innerText()) < Number(await view.right.largest.innerText()), 'a smaller largest weight');
  assert.match(await view.consequence.innerText(), /gets flatter/);

  // The same holds in the "previous word" head; the numbers match the core.
  await view.head.selectOption('3');
  const core = (scaleBy) => lab.rowStats(lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4, { scaleBy }).heads[3].weights).entropy[7];
  const right3 = nats(await view.right.entropy.innerText());
  const wrong3 = nats(await view.wrong.entropy.innerText());
  assert.ok(wrong3 > right3, `head 3: ${wrong3} > ${right3}`);
  assert.equal(right3.toFixed(3), core('head').toFixed(3));
  assert.equal(wrong3.toFixed(3), core('model').toFixed(3));
  await page.waitForFunction(() => location.search.includes('mistakes.head=3'));
  assert.deepEqual(problems, []);
});

test('(b) softmax over the wrong axis: every column sums to 1.000, the rows do not', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  await view.wrongAxis.check();
  assert.equal(await view.head.isVisible(), false, 'the head picker hides for the full-width mistakes');

  const wrongCols = numbers(await view.wrong.colSums.innerText());
  const wrongRows = numbers(await view.wrong.rowSums.innerText());
  assert.equal(wrongCols.length, 8);
  assert.ok(wrongCols.every((s) => s.toFixed(3) === '1.000'), `column sums ${wrongCols}`);
  assert.ok(wrongRows.some((s) => s.toFixed(3) !== '1.000'), `row sums ${wrongRows}`);

  const rightRows = numbers(await view.right.rowSums.innerText());
  const rightCols = numbers(await view.right.colSums.innerText());
  assert.ok(rightRows.every((s) => s.toFixed(3) === '1.000'), `correct row sums ${rightRows}`);
  assert.ok(rightCols.some((s) => s.toFixed(3) !== '1.000'), `correct column sums ${rightCols}`);

  // The sums printed agree with the cells of the mistaken map.
  const cells = await cellWeights(view.wrong.grid);
  for (let j = 0; j < 8; j += 1) {
    const column = cells.filter((_, index) => index % 8 === j).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(column - 1) < 0.001, `column ${j} of the map sums to ${column}`);
  }
  assert.equal(await view.wrong.entropy.isVisible(), false);
  const line = await view.consequence.innerText();
  assert.match(line, new RegExp(`from ${Math.min(...wrongRows).toFixed(3)} to ${Math.max(...wrongRows).toFixed(3)}`));
  await page.waitForFunction(() => location.search.includes('mistakes.kind=wrong-axis'));
  assert.deepEqual(problems, []);
});

test('(c) no scaling at all sharpens the "it" row', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  await view.noScale.check();
  assert.match(await view.right.title.innerText(), /÷ 8\.000 = √d/);
  assert.match(await view.wrong.title.innerText(), /÷ 1\.000/);
  const right = nats(await view.right.entropy.innerText());
  const wrong = nats(await view.wrong.entropy.innerText());
  assert.ok(wrong < right, `entropy without scaling ${wrong} < correct ${right}`);
  assert.ok(Number(await view.wrong.largest.innerText()) > Number(await view.right.largest.innerText()));
  assert.match(await view.consequence.innerText(), /gets sharper/);
  assert.deepEqual(problems, []);
});

test('(d) keys and values swapped changes the weights and the output', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  await view.swapped.check();
  const right = await cellWeights(view.right.grid);
  const wrong = await cellWeights(view.wrong.grid);
  const changed = right.filter((w, i) => Math.abs(w - wrong[i]) > 0.01).length;
  assert.ok(changed > 8, `${changed} of 64 weights changed`);
  assert.match(await view.right.largest.locator('xpath=..').innerText(), /on “cat” \(1\)/);
  assert.doesNotMatch(await view.wrong.largest.locator('xpath=..').innerText(), /on “cat” \(1\)/);
  assert.notEqual(await view.right.output.innerText(), await view.wrong.output.innerText());

  // The mistaken map is softmax(Q Vᵀ/√d_k) as the core computes it.
  const Q = lab.matmul(toy.X, toy.WQ);
  const K = lab.matmul(toy.X, toy.WK);
  const V = lab.matmul(toy.X, toy.WV);
  const core = lab.attention(Q, V, K).weights.data;
  wrong.forEach((w, i) => assert.ok(Math.abs(w - core[i]) < 5e-5, `cell ${i}: ${w} vs ${core[i]}`));
  assert.match(await view.consequence.innerText(), /instead of 0\.986 on “cat” \(1\)/);
  assert.deepEqual(problems, []);
});

test('the radio group works from the keyboard and a link restores the choice', async () => {
  const { page, problems } = await session.openPage();
  const view = mistakesFigure(page);
  await view.modelWidth.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await view.wrongAxis.isChecked(), true);
  await page.keyboard.press('ArrowDown');
  assert.equal(await view.noScale.isChecked(), true);
  await page.waitForFunction(() => location.search.includes('mistakes.kind=no-scale'));

  const restored = await session.openPage({ search: '?mistakes.kind=swap-kv' });
  const again = mistakesFigure(restored.page);
  assert.equal(await again.swapped.isChecked(), true);
  assert.equal(await again.wrong.output.isVisible(), true);
  assert.deepEqual(problems, []);
  assert.deepEqual(restored.problems, []);
});

test('the figure fits a 375 px phone', async () => {
  const { page, problems } = await session.openPage({ search: '?mistakes.kind=wrong-axis', contextOptions: PHONE });
  const view = mistakesFigure(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const box = await view.figure.boundingBox();
  assert.ok(box.width <= 375, `figure ${box.width}px wide`);
  assert.equal(numbers(await view.wrong.colSums.innerText()).length, 8);
  assert.deepEqual(problems, []);
});
