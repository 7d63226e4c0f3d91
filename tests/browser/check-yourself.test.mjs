// The "Check yourself" section: each numeric question accepts a right answer and rejects a
// wrong one (the expected values come from the core, when Check is pressed), and the
// questions answered in words open a sample answer.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();

function checkFigure(page) {
  const figure = page.locator('#figure-check-yourself');
  /** The list item of the question whose prompt matches. */
  const question = (prompt) => figure.getByRole('listitem').filter({ has: page.getByText(prompt) });
  return { figure, question };
}

/** Fills the fields of one question (by label), presses its Check and returns the feedback text. */
async function answer(item, values) {
  for (const [label, value] of Object.entries(values)) await item.getByLabel(label, { exact: true }).fill(value);
  await item.getByRole('button', { name: 'Check' }).click();
  return item.getByRole('status').innerText();
}

/** Presses a question's "Show the answer" and returns the feedback text. */
async function showAnswer(item) {
  await item.getByRole('button', { name: 'Show the answer' }).click();
  return item.getByRole('status').innerText();
}

test('the shape question: 10 × 10 is right, 10 × 2 is not', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/shape of the weight matrix/);
  let feedback = await answer(item, { rows: '10', columns: '10' });
  assert.match(feedback, /^Right\./);
  assert.match(feedback, /is 10 × 10: one row of weights for each query/);

  feedback = await answer(item, { rows: '10', columns: '2' });
  assert.match(feedback, /^Not yet\. Try again/);
  assert.match(feedback, /rows: right \(you said 10\)/);
  assert.match(feedback, /columns: wrong \(you said 2: too low\)/);
  assert.doesNotMatch(feedback, /core gets|10 × 10/, 'a wrong try keeps the answer back');
  feedback = await showAnswer(item);
  assert.match(feedback, /columns: wrong \(you said 2, the core gets 10\)/);
  assert.deepEqual(problems, []);
});

test('attention for q = [1, 0]: the lesson\'s rounded answer is right, a flat guess is not', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/Compute attention for q = \[1, 0\]/);
  let feedback = await answer(item, {
    'weight 1': '0.40', 'weight 2': '0.20', 'weight 3': '0.40', 'output x': '0.60', 'output y': '0.40',
  });
  assert.match(feedback, /^Right\./);
  assert.match(feedback, /weights \[0\.401, 0\.198, 0\.401\] and output \[0\.602, 0\.398\]/);

  feedback = await answer(item, {
    'weight 1': '0.333', 'weight 2': '0.333', 'weight 3': '0.333', 'output x': '0.5', 'output y': '0.5',
  });
  assert.match(feedback, /^Not yet\./);
  assert.match(feedback, /weight 2: wrong \(you said 0\.333: too high\)/);
  assert.match(feedback, /output x: wrong \(you said 0\.5: too low\)/);
  assert.doesNotMatch(feedback, /0\.198|0\.602/);
  feedback = await showAnswer(item);
  assert.match(feedback, /weight 2: wrong \(you said 0\.333, the core gets 0\.198\)/);
  assert.deepEqual(problems, []);
});

test('scaled scores for q = [4, 0]: 2.83, 0, 2.83 is right; forgetting the √2 is wrong', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/What are the scaled scores/);
  let feedback = await answer(item, { 'scaled score 1': '2.83', 'scaled score 2': '0', 'scaled score 3': '2.83' });
  assert.match(feedback, /^Right\./);
  assert.match(feedback, /\[2\.828, 0\.000, 2\.828\]/);

  feedback = await answer(item, { 'scaled score 1': '4', 'scaled score 2': '0', 'scaled score 3': '4' });
  assert.match(feedback, /^Not yet\./);
  assert.match(feedback, /scaled score 1: wrong \(you said 4: too high\)/);
  assert.match(feedback, /scaled score 2: right/);
  assert.deepEqual(problems, []);
});

test('the weight left on k2 for q = [4, 0]: 0 is wrong, not close; a retry comes before the answer', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/how much weight is left on the key k2/);
  // "No weight at all" is the misconception this question is about: the true value is 0.029.
  const zero = await answer(item, { 'weight on k2': '0' });
  assert.match(zero, /^Not yet\. Try again/);
  assert.match(zero, /weight on k2: wrong \(you said 0: too low\)/);
  assert.doesNotMatch(zero, /0\.029/, 'the first wrong try does not give the answer away');
  assert.match(await answer(item, { 'weight on k2': '0.2' }), /^Not yet\./);
  assert.match(await answer(item, { 'weight on k2': '0.025' }), /^Close\./);
  const second = await answer(item, { 'weight on k2': '0.03' });
  assert.match(second, /^Right\./);
  assert.match(second, /the core gets 0\.029/);
  assert.deepEqual(problems, []);
});

test('doubling the sentence: 4 times as many scores is right, 2 is wrong', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/How many times as many query–key scores/);
  assert.match(await answer(item, { 'times as many': '4' }), /^Right\./);
  const wrong = await answer(item, { 'times as many': '2' });
  assert.match(wrong, /^Not yet\./);
  assert.match(wrong, /times as many: wrong \(you said 2: too low\)/);
  // An empty answer is reported, not treated as zero.
  assert.match(await answer(item, { 'times as many': '' }), /times as many: no answer$/m);
  assert.match(await showAnswer(item), /times as many: no answer \(the core gets 4\)/);
  assert.deepEqual(problems, []);
});

test('a sample answer opens, and the rule, takeaways and references are on the page', async () => {
  const { page, problems } = await session.openPage();
  const section = page.locator('#check-yourself');
  assert.equal(await section.getByRole('heading', { level: 2, name: 'Check yourself' }).count(), 1);
  const summaries = section.getByText('Show a sample answer');
  assert.equal(await summaries.count(), 8);
  const details = section.locator('details').filter({ hasText: /weighted average of the value vectors/ });
  assert.equal(await details.getAttribute('open'), null);
  assert.equal(await details.getByText(/weighted average of the value vectors/).isVisible(), false);
  await details.getByText('Show a sample answer').click();
  assert.equal(await details.getAttribute('open'), '');
  assert.equal(await details.getByText(/weighted average of the value vectors/).isVisible(), true);

  for (const name of ['The rule in plain words', 'Key takeaways', 'References and further reading']) {
    assert.equal(await section.getByRole('heading', { level: 3, name }).count(), 1, name);
  }
  const references = await section.locator('.references').innerText();
  assert.match(references, /Attention Is All You Need/);
  assert.match(references, /Neural Machine Translation by Jointly Learning to Align and Translate/);
  // Citations only: nothing in the section points at, or loads from, another site.
  const external = await section.locator('[href^="http"], [src^="http"], [href^="//"], [src^="//"]').count();
  assert.equal(external, 0);
  assert.deepEqual(problems, []);
});

test('the questions fit a 375 px phone screen and work by keyboard', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const item = checkFigure(page).question(/shape of the weight matrix/);
  await item.getByLabel('rows', { exact: true }).fill('10');
  await item.getByLabel('columns', { exact: true }).fill('10');
  await page.keyboard.press('Enter'); // submits the question's form
  assert.match(await item.getByRole('status').innerText(), /^Right\./);
  assert.deepEqual(problems, []);
});

test('an answer that is not a decimal number is called unreadable, not "no answer", and marked invalid', async () => {
  const { page, problems } = await session.openPage();
  const item = checkFigure(page).question(/shape of the weight matrix/);
  for (const typed of ['abc', 'NaN', 'Infinity', '1e400', '½', '0x10', '<b>10</b>']) {
    const feedback = await answer(item, { rows: typed, columns: '10' });
    assert.match(feedback, /rows: not a number I can read/, `${typed}: ${feedback}`);
    assert.equal(await item.getByLabel('rows', { exact: true }).getAttribute('aria-invalid'), 'true', typed);
  }
  // An empty field is still "no answer", and a readable one clears the mark.
  let feedback = await answer(item, { rows: '', columns: '10' });
  assert.match(feedback, /rows: no answer/);
  feedback = await answer(item, { rows: '10', columns: '10' });
  assert.match(feedback, /^Right\./);
  assert.equal(await item.getByLabel('rows', { exact: true }).getAttribute('aria-invalid'), null);
  assert.deepEqual(problems, []);
});
