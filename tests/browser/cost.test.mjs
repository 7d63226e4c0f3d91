// The "What one layer costs" figure: presets, typed inputs, errors that keep the last good
// numbers, the parameter count that ignores h, the log-log plot's crossings and Table 1.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();

function costFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByLabel('bytes per number') });
  const field = (label) => figure.getByRole('textbox', { name: label, exact: true });
  return {
    figure,
    n: field('queries n'),
    m: field('keys m'),
    d: field('width d_model'),
    h: field('heads h'),
    same: figure.getByRole('checkbox', { name: /same as n/ }),
    bytes: figure.getByLabel('bytes per number'),
    preset: (name) => figure.getByRole('button', { name: new RegExp(`^${name}`) }),
    qk: figure.getByLabel('multiply-adds for Q Kᵀ'),
    av: figure.getByLabel('multiply-adds for A·V'),
    projections: figure.getByLabel('multiply-adds for the four projections'),
    perHead: figure.getByLabel('attention weights, one head'),
    allHeads: figure.getByLabel('attention weights, all heads'),
    parameters: figure.getByLabel('parameters', { exact: true }),
    alerts: figure.getByRole('alert'),
    table: figure.getByRole('table', { name: /Table 1 of the paper/ }),
  };
}

/** "29.5 M" → { value: 29.5, unit: 'M' }; "1 048 576" → { value: 1048576, unit: '' }. */
async function amount(locator) {
  const text = (await locator.innerText()).replace(/[\u2009\u00a0\u202f]/g, ' ').trim();
  const match = /^([\d.]+(?: \d{3})*)\s*([A-Za-z]*)$/.exec(text);
  assert.ok(match, `"${text}" is not an amount`);
  return { value: Number(match[1].replace(/ /g, '')), unit: match[2] };
}

async function expectAmount(locator, value, unit, tolerance, what) {
  const shown = await amount(locator);
  assert.equal(shown.unit, unit, `${what}: unit of ${JSON.stringify(shown)}`);
  assert.ok(Math.abs(shown.value - value) <= tolerance, `${what}: got ${shown.value} ${shown.unit}, expected about ${value} ${unit}`);
}

/** The ViT sizes (n = 196, d = 768, 12 heads by default, as the preset). */
async function expectVit(view, heads = 12) {
  await expectAmount(view.qk, 29.5, 'M', 0.05, 'Q Kᵀ');
  await expectAmount(view.av, 29.5, 'M', 0.05, 'A·V');
  await expectAmount(view.projections, 462, 'M', 0.5, 'projections');
  await expectAmount(view.allHeads, { 8: 1.23, 12: 1.84, 16: 2.46 }[heads], 'MB', 0.005, `weights of ${heads} heads`);
}

/** The last valid results stay, said to be stale: the ViT numbers, struck through, and the note. */
async function expectStale(view, heads = 12) {
  await expectVit(view, heads);
  assert.match(await view.figure.innerText(), /These numbers are for the last valid inputs: fix the field marked in red/);
  assert.ok(await view.figure.locator('.cost-results-stale').count() === 1, 'the results are marked stale');
}

test('the section loads in the lesson order with no console errors, showing the ViT numbers', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await assert.doesNotReject(view.figure.waitFor());
  assert.equal(await page.getByRole('heading', { level: 2, name: 'What one layer costs' }).count(), 1);
  const order = await page.evaluate(() => [...document.querySelectorAll('main > section')].map((s) => s.id));
  const here = order.indexOf('cost');
  assert.ok(here > order.indexOf('why-scale'), `sections: ${order.join(', ')}`);
  if (order.includes('heads')) assert.ok(here > order.indexOf('heads'), `sections: ${order.join(', ')}`);
  if (order.includes('map')) assert.ok(here < order.indexOf('map'), `sections: ${order.join(', ')}`);
  assert.equal(await view.n.inputValue(), '196');
  assert.ok(await view.same.isChecked());
  assert.ok(await view.m.isDisabled(), 'm follows n while "same as n" is ticked');
  await expectVit(view);
  assert.deepEqual(problems, []);
});

test('presets: ViT image gives 29.5 M, 29.5 M, 462 M and 1.8 MB; pixels about 10 GB per head', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await view.preset('pixels').click();
  assert.equal(await view.n.inputValue(), '50176');
  await expectAmount(view.perHead, 10, 'GB', 0.2, 'weights of one head at pixel resolution');
  await expectAmount(view.qk, 1.93, 'T', 0.01, 'Q Kᵀ at pixel resolution');

  await view.preset('ViT image').click();
  await expectVit(view, 12);
  await expectAmount(view.perHead, 154, 'kB', 0.5, 'weights of one head');

  await view.preset('toy sentence').click();
  assert.deepEqual([await view.n.inputValue(), await view.d.inputValue(), await view.h.inputValue()], ['8', '16', '4']);
  await expectAmount(view.qk, 8 * 8 * 16, '', 0, 'Q Kᵀ of the toy sentence');
  await expectAmount(view.parameters, 4 * 16 * 16, '', 0, 'parameters of the toy layer');
  assert.deepEqual(problems, []);
});

test('h = 5 with d_model = 768 shows an error naming h and d_model and keeps the last numbers, stale', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await expectVit(view);
  // While typing, the message waits for a pause (an alert interrupts a screen reader); the
  // numbers go at once. Enter (or leaving the field) commits it: the message then comes at once.
  await view.h.fill('5');
  const alert = view.alerts.filter({ hasText: /\S/ });
  await expectStale(view);
  await alert.waitFor();
  assert.equal(await alert.count(), 1);
  await view.h.fill('7');
  await view.h.press('Enter');
  assert.match(await alert.innerText(), /heads h = 7/, 'committed: the message is there at once');
  await view.h.fill('5');
  await view.h.press('Tab');
  const message = await alert.innerText();
  assert.match(message, /heads h = 5/);
  assert.match(message, /d_model = 768/);
  assert.equal(await view.h.getAttribute('aria-invalid'), 'true');
  assert.equal(await view.h.inputValue(), '5', 'the learner keeps what they typed');
  await expectStale(view);
  // Parameters do not depend on h: they stay, and so does their note.
  assert.match(await view.figure.innerText(), /4·d², whatever h is/);

  await view.h.fill('16');
  assert.equal(await view.alerts.filter({ hasText: /\S/ }).count(), 0, 'the error goes once h divides d_model');
  assert.equal(await view.h.getAttribute('aria-invalid'), null);
  assert.equal(await view.figure.locator('.cost-results-stale').count(), 0, 'fresh numbers are not marked stale');
  await expectVit(view, 16);
  await page.waitForFunction(() => location.search.includes('cost.h=16'));
  assert.deepEqual(problems, []);
});

test('empty, negative and unreadable fields show the core message and keep the text', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  for (const [text, pattern] of [['', /n must be a whole number >= 1, and the field is empty/], ['-3', /n must be a whole number >= 1, got -3/], ['lots', /got “lots”/]]) {
    await view.n.fill(text);
    assert.match(await view.alerts.filter({ hasText: /\S/ }).innerText(), pattern);
    assert.equal(await view.n.inputValue(), text);
    await expectStale(view);
  }
  // A comma is a decimal mark on this page, so a count refuses it rather than read 1,000 as 1 (or 1,5 as 15).
  await view.n.fill('1,000');
  assert.match(await view.alerts.filter({ hasText: /\S/ }).innerText(), /n = “1,000” is not a whole number: a comma is a decimal mark/);
  await view.n.fill('1000');
  assert.equal(await view.alerts.filter({ hasText: /\S/ }).count(), 0, 'digits alone are read');
  await expectAmount(view.qk, 768, 'M', 0, 'Q Kᵀ at n = 1000');
  assert.deepEqual(problems, []);
});

test('parameters read 1,048,576 for d_model = 512 with one head and with eight', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await view.d.fill('512');
  await view.h.fill('1');
  await expectAmount(view.parameters, 1048576, '', 0, 'parameters with h = 1');
  const oneHead = await amount(view.allHeads);
  await view.h.fill('8');
  await expectAmount(view.parameters, 1048576, '', 0, 'parameters with h = 8');
  const eightHeads = await amount(view.allHeads);
  assert.ok(eightHeads.value > oneHead.value || eightHeads.unit !== oneHead.unit, 'but the weight memory grows with h');
  assert.deepEqual(problems, []);
});

test('unticking "same as n" lets m differ, and the bytes per number scale the memory', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await view.same.uncheck();
  assert.ok(await view.m.isEnabled());
  await view.m.fill('10');
  await expectAmount(view.qk, 196 * 10 * 768 / 1e6, 'M', 0.05, 'Q Kᵀ with m = 10');
  await expectAmount(view.perHead, 196 * 10 * 4 / 1e3, 'kB', 0.05, 'one head with m = 10');
  await view.bytes.selectOption('2');
  await expectAmount(view.perHead, 196 * 10 * 2 / 1e3, 'kB', 0.05, 'one head in 16-bit floats');
  await page.waitForFunction(() => location.search.includes('cost.same=off') && location.search.includes('cost.m=10'));
  assert.deepEqual(problems, []);
});

test('the plot reads its crossings from the curves: Q Kᵀ meets a recurrent layer at n = d', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  const plot = view.figure.getByRole('img', { name: /multiply-adds .* against sequence length/ });
  assert.equal(await plot.count(), 1);
  assert.match(await view.figure.innerText(), /recurrent layer from n ≈ 768/);
  assert.match(await view.figure.innerText(), /four projections from n ≈ 3\u2009072/);
  await view.d.fill('512');
  await view.h.fill('8');
  assert.match(await view.figure.innerText(), /recurrent layer from n ≈ 512/);
  assert.equal(await view.figure.locator('.plot-annotation').count(), 2);
  assert.deepEqual(problems, []);
});

test('Table 1 rows at n = 196 and n = 50,176', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  const rows = await view.table.evaluate((table) => [...table.tBodies].map((body) => ({
    layer: body.rows[0].textContent.trim(),
    cells: [...body.rows].slice(1).map((row) => [...row.cells].map((cell) => cell.textContent.replace(/[\u2009\u00a0]/g, ' ').trim())),
  })));
  assert.deepEqual(rows.map((r) => r.layer), ['self-attention', 'recurrent', 'convolutional']);
  const [attention, recurrent, convolutional] = rows;
  assert.deepEqual(attention.cells[0].slice(1), ['29.5 M', '1.93 T']);
  assert.deepEqual(attention.cells[1].slice(1), ['1', '1']);
  assert.deepEqual(recurrent.cells[1].slice(1), ['196', '50 176']);
  assert.deepEqual(recurrent.cells[0].slice(1), ['116 M', '29.6 G']);
  assert.deepEqual(convolutional.cells[2].slice(1), ['5', '10']);
  assert.deepEqual(problems, []);
});

test('a link restores the inputs', async () => {
  const { page, problems } = await session.openPage({ search: '?cost.n=1024&cost.d=512&cost.h=8&cost.bytes=2' });
  const view = costFigure(page);
  assert.equal(await view.n.inputValue(), '1024');
  assert.equal(await view.d.inputValue(), '512');
  assert.equal(await view.bytes.inputValue(), '2');
  await expectAmount(view.perHead, 1024 * 1024 * 2 / 1e6, 'MB', 0.01, 'one head');
  assert.deepEqual(problems, []);
});

test('the figure fits a 375 px phone screen', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const view = costFigure(page);
  const table = await view.table.boundingBox();
  assert.ok(table.x >= 0 && table.x + table.width <= 375, `table spans ${table.x}…${table.x + table.width}`);
  await view.preset('pixels').click();
  await expectAmount(view.perHead, 10, 'GB', 0.2, 'weights of one head');
  assert.deepEqual(problems, []);
});

test('d_model = 512 does not take the default 12 heads; 8 do, and one head reads "× 1 head"', async () => {
  const { page, problems } = await session.openPage();
  const view = costFigure(page);
  await view.d.fill('512');
  assert.match(await view.alerts.filter({ hasText: /\S/ }).innerText(), /h = 12 must divide d_model = 512/);
  await view.h.fill('8');
  assert.equal(await view.alerts.filter({ hasText: /\S/ }).count(), 0, 'h = 8 divides 512');
  await expectAmount(view.parameters, 1048576, '', 0, 'parameters at d = 512');
  await view.h.fill('1');
  const note = await view.allHeads.locator('xpath=..').innerText();
  assert.match(note, /× 1 head$/m);
  assert.doesNotMatch(note, /1 heads/);
  assert.deepEqual(problems, []);
});
