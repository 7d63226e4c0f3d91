// The "One query by hand" figure, driven like a learner: presets, typed components, a dragged
// and a keyboard-moved arrow tip, the stepper with predict-then-check, the highlighted C++
// and the additive-versus-dot-product panel. Numbers are read from the page and compared with
// the lesson's values and, for the additive scores, with the core run under node.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { matrix } from '../../cpp/bindings/attention-lab.js';
import { loadLab } from '../js/load-lab.mjs';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();
const nodeLab = await loadLab();
const HEADER = new URL('../../cpp/teaching/attend_one.hpp', import.meta.url);
// The numbers are covered until checked by default; tests that read them switch the cover off.
const UNCOVERED = '?by-hand.hide=0';

function byHandFigure(page) {
  const figure = page.locator('#figure-by-hand');
  const rowOf = (name) => figure.getByRole('row', { name: new RegExp(`^\\d ${name}`) });
  return {
    figure,
    field: (name) => figure.getByLabel(name, { exact: true }),
    preset: (name) => figure.getByRole('button', { name, exact: true }),
    next: figure.getByRole('button', { name: 'Next step' }),
    previous: figure.getByRole('button', { name: 'Previous step' }),
    check: figure.getByRole('button', { name: 'Check', exact: true }),
    tab: (n) => figure.getByRole('tab', { name: new RegExp(`^${n}\\.`) }),
    row: rowOf,
    feedback: figure.getByRole('list', { name: /^feedback on step/ }).filter({ visible: true }),
    currentCode: figure.locator('.code-line-current'),
  };
}

/** The numbers printed in a table row (after its header cell), in order. */
async function rowNumbers(row) {
  const cells = await row.locator('td').allInnerTexts();
  return cells.join(' ').replaceAll('\u2212', '-').match(/-?\d+\.\d+/g).map(Number);
}

/** Numbers inside a "[a, b, c]" text. */
function vectorIn(text) {
  return text.replaceAll('\u2212', '-').match(/-?\d+(?:\.\d+)?/g).map(Number);
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual} vs ${expected}`);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= tolerance, `${what}[${i}] = ${a}, expected ${expected[i]} ± ${tolerance}`));
}

test('with the cover off the figure shows the lesson\'s worked example: weights 0.401/0.198/0.401, output 0.602/0.398', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  assert.equal(await page.getByRole('heading', { level: 2, name: 'One query, by hand' }).count(), 1);
  assert.equal(await view.field('q x').inputValue(), '1');
  assert.equal(await view.field('k3 y').inputValue(), '1');
  assert.equal(await view.field('v3 x').inputValue(), '0.5');
  assert.deepEqual(await rowNumbers(view.row('dot products')), [1, 0, 1]);
  assert.deepEqual(await rowNumbers(view.row('scaled scores')), [0.707, 0, 0.707]);
  assert.deepEqual(await rowNumbers(view.row('weights')), [0.401, 0.198, 0.401]);
  assert.deepEqual(await rowNumbers(view.row('output')), [0.602, 0.398]);
  // The step panel of step 1 shows its working.
  assert.match(await view.figure.getByRole('list', { name: 'working of step 1' }).innerText(), /q·k3 = \[1, 0\]·\[1, 1\] = 1\.000/);
  assert.deepEqual(problems, []);
});

test('the sharper query preset q = [4, 0] gives weights 0.49/0.03/0.49 and output 0.73/0.27', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  await view.preset('sharper query q = [4, 0]').click();
  assert.equal(await view.field('q x').inputValue(), '4');
  assertClose(await rowNumbers(view.row('scaled scores')), [2.83, 0, 2.83], 0.005, 'scaled');
  assertClose(await rowNumbers(view.row('weights')), [0.49, 0.03, 0.49], 0.005, 'weights');
  assertClose(await rowNumbers(view.row('output')), [0.73, 0.27], 0.005, 'output');
  await page.waitForFunction(() => location.search.includes('by-hand.qx=4'));
  // Back to the first example.
  await view.preset('q = [1, 0]').click();
  assert.deepEqual(await rowNumbers(view.row('weights')), [0.401, 0.198, 0.401]);
  assert.deepEqual(problems, []);
});

test('typing q x = 4 into its field gives the same numbers as the preset', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  await view.field('q x').fill('4');
  await view.field('q x').press('Enter'); // a typed component is read when it is committed
  assertClose(await rowNumbers(view.row('weights')), [0.49, 0.03, 0.49], 0.005, 'weights');
  assertClose(await rowNumbers(view.row('output')), [0.73, 0.27], 0.005, 'output');
  // A value beyond the range is clamped when the field is left.
  await view.field('k2 y').fill('9');
  await view.field('k2 y').blur();
  assert.equal(await view.field('k2 y').inputValue(), '4');
  assert.deepEqual(problems, []);
});

test('a right prediction is confirmed; a wrong one gets a direction and a retry before the answer', async () => {
  const { page, problems } = await session.openPage();
  const view = byHandFigure(page);
  await view.next.click();
  await view.next.click();
  assert.equal(await view.tab(3).getAttribute('aria-selected'), 'true');
  await view.field('your weight 1').fill('0.40');
  await view.field('your weight 2').fill('0.5');
  await view.field('your weight 3').fill('0.41');
  await view.check.click();
  let lines = await view.feedback.getByRole('listitem').allInnerTexts();
  assert.match(lines[0], /^weight 1: Right: you said 0\.4, the core gets 0\.401\.$/);
  assert.match(lines[1], /^weight 2: Wrong: you said 0\.5, too high\. Try again\.$/);
  assert.match(lines[2], /^weight 3: Right/);
  assert.doesNotMatch(lines.join(' '), /0\.198/, 'a wrong try does not give the value away');
  assert.ok((await view.row('weights').innerText()).includes('?'), 'the step stays covered');

  // The second try is right: the step uncovers.
  await view.field('your weight 2').fill('0.2');
  await view.check.click();
  lines = await view.feedback.getByRole('listitem').allInnerTexts();
  assert.match(lines[1], /^weight 2: Right: you said 0\.2, the core gets 0\.198\.$/);
  assert.deepEqual(await rowNumbers(view.row('weights')), [0.401, 0.198, 0.401]);

  // Step 1: 0.03 for a score of 0 is not close (the tolerance fits the quantity); Show the answer tells.
  await view.tab(1).click();
  await view.field('your q·k1').fill('1');
  await view.field('your q·k2').fill('0.03');
  await view.check.click();
  const first = await view.feedback.getByRole('listitem').allInnerTexts();
  assert.match(first[0], /Right/);
  assert.match(first[1], /Wrong: you said 0\.03, too high/);
  assert.match(first[2], /no guess yet/);
  await view.figure.getByRole('button', { name: 'Show the answer' }).filter({ visible: true }).click();
  const told = await view.feedback.getByRole('listitem').allInnerTexts();
  assert.match(told[1], /the core gets 0\.000/);
  assert.match(told[2], /no guess; the core gets 1\.000/);
  assert.deepEqual(problems, []);
});

test('the code lines of the current step are highlighted, and the code is the header\'s function', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  const header = await readFile(HEADER, 'utf8');
  const expected = header.slice(header.indexOf('\n', header.indexOf('// page-code-begin')) + 1, header.indexOf('// page-code-end'));
  const shown = await view.figure.locator('pre.by-hand-code').textContent();
  assert.equal(shown, expected, 'the page shows the function from cpp/teaching/attend_one.hpp verbatim');

  const expectations = [/\/\/ 1\. Dot products[\s\S]*score\[j\] \+= q\[c\] \* keys\[j\]\[c\]/, /\/\/ 2\. Scale[\s\S]*std::sqrt/, /\/\/ 3\. Softmax[\s\S]*std::exp[\s\S]*w \/= total/, /\/\/ 4\. Weighted sum[\s\S]*out\[c\] \+= weight\[j\] \* values\[j\]\[c\][\s\S]*return out;/];
  for (let step = 1; step <= 4; step += 1) {
    if (step > 1) await view.next.click();
    const text = (await view.currentCode.allTextContents()).join('');
    assert.match(text, expectations[step - 1], `step ${step} highlights ${text}`);
    for (const other of expectations.filter((_, i) => i !== step - 1)) assert.doesNotMatch(text, other);
    assert.match(await view.figure.locator('.by-hand-code-note').innerText(), new RegExp(`step ${step}`));
  }
  assert.equal(await view.next.isDisabled(), true, 'no step after the fourth');
  await view.previous.click();
  assert.match((await view.currentCode.allTextContents()).join(''), /std::exp/);
  // Arrow keys move along the tab list.
  await view.tab(3).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await view.tab(4).getAttribute('aria-selected'), 'true');
  assert.deepEqual(problems, []);
});

test('the "every token as query" preset shows the 3 × 3 table: token 3 gets 0.248/0.248/0.504 and output [0.5, 0.5]', async () => {
  const { page, problems } = await session.openPage({ search: `${UNCOVERED}&by-hand.qx=3` });
  const view = byHandFigure(page);
  const grid = view.figure.getByRole('grid', { name: 'weights of every token over every token' });
  assert.equal(await grid.isVisible(), false, 'the table is hidden until asked for');
  await view.preset('every token as query').click();
  assert.equal(await view.field('q x').inputValue(), '1', 'the preset also restores the worked example');
  assert.equal(await grid.getByRole('gridcell').count(), 9);
  const names = await grid.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  const third = names.filter((n) => n.startsWith('query token 3')).map(trailingNumber);
  assertClose(third, [0.248, 0.248, 0.504], 0.001, 'token 3 weights');
  const first = names.filter((n) => n.startsWith('query token 1')).map(trailingNumber);
  assertClose(first, [0.401, 0.198, 0.401], 0.0005, 'token 1 weights (the single query of the figure)');
  const token3 = view.figure.getByRole('row', { name: /^token 3/ });
  const [scores, output] = await token3.locator('td').allInnerTexts();
  assertClose(vectorIn(scores), [0.707, 0.707, 1.414], 0.0005, 'token 3 scaled scores');
  assert.equal(output, '[0.500, 0.500]');
  await view.figure.getByRole('button', { name: 'Hide the table' }).click();
  assert.equal(await grid.isVisible(), false);
  assert.deepEqual(problems, []);
});

test('dragging the tip of q changes the weights; the arrow keys move a focused tip', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  const tip = view.figure.getByRole('slider', { name: 'tip of q' });
  await tip.scrollIntoViewIfNeeded();
  const box = await tip.boundingBox();
  const before = await rowNumbers(view.row('weights'));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 20, box.y + box.height / 2 - 60, { steps: 5 });
  await page.mouse.up();
  const qx = Number(await view.field('q x').inputValue());
  const qy = Number(await view.field('q y').inputValue());
  assert.ok(qy > 0.3, `q moved up (q = [${qx}, ${qy}])`);
  const after = await rowNumbers(view.row('weights'));
  assert.notDeepEqual(after, before);
  assert.ok(after[1] > before[1], 'moving q towards k2 gives k2 more weight');
  // The drag snaps to tenths, and the slider's value text follows.
  assert.equal(Math.round(qy * 10) / 10, qy);
  assert.match(await tip.getAttribute('aria-valuetext'), new RegExp(`^q = \\[${qx}, ${qy}\\]$`));

  // Keyboard: the key k2 moves one tenth per arrow press, a whole unit with Shift.
  const k2 = view.figure.getByRole('slider', { name: 'tip of k2' });
  await k2.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await view.field('k2 x').inputValue(), '0.1');
  await page.keyboard.press('Shift+ArrowDown');
  assert.equal(await view.field('k2 y').inputValue(), '0');
  await page.waitForFunction(() => location.search.includes('by-hand.k2x=0.1'));
  assert.deepEqual(problems, []);
});

test('the additive score shown is what the core computes, and it changes with q', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED });
  const view = byHandFigure(page);
  const constants = view.figure.locator('.by-hand-constants');
  const W = matrix(JSON.parse(await constants.getAttribute('data-w')));
  const U = matrix(JSON.parse(await constants.getAttribute('data-u')));
  const v = matrix(JSON.parse(await constants.getAttribute('data-v')));
  const K = matrix([[1, 0], [0, 1], [1, 1]]);
  const V = matrix([[1, 0], [0, 1], [0.5, 0.5]]);
  const additive = (name) => view.figure.getByRole('status', { name: `Additive (Bahdanau): ${name}` });
  const dot = (name) => view.figure.getByRole('status', { name: `Dot product: ${name}` });

  const seen = [];
  for (const q of [[1, 0], [4, 0], [0.5, 1.5]]) {
    await view.field('q x').fill(String(q[0]));
    await view.field('q x').press('Enter');
    await view.field('q y').fill(String(q[1]));
    await view.field('q y').press('Enter');
    const scores = nodeLab.additiveScores(matrix([q]), K, W, U, v);
    const weights = nodeLab.softmax(scores);
    const output = nodeLab.matmul(weights, V);
    const shownScores = vectorIn(await additive('score').innerText());
    assertClose(shownScores, [...scores.data], 0.0005, `additive scores for q = ${q}`);
    assertClose(vectorIn(await additive('weights').innerText()), [...weights.data], 0.0005, 'additive weights');
    assertClose(vectorIn(await additive('output').innerText()), [...output.data], 0.0005, 'additive output');
    const reference = nodeLab.attention(matrix([q]), K, V);
    assertClose(vectorIn(await dot('score').innerText()), [...reference.scaledScores.data], 0.0005, 'dot scores');
    assertClose(vectorIn(await dot('weights').innerText()), [...reference.weights.data], 0.0005, 'dot weights');
    const wq = nodeLab.matmul(W, { rows: 2, cols: 1, data: Float64Array.from(q) });
    assertClose(vectorIn(await view.figure.getByRole('status', { name: 'W q' }).innerText()), [...wq.data], 0.0005, 'W q');
    seen.push(shownScores.join(','));
  }
  assert.equal(new Set(seen).size, 3, 'the additive scores differ for each q');
  assert.match(await view.figure.locator('.by-hand-compare').innerText(), /only the first line differs/);
  assert.deepEqual(problems, []);
});

test('covered by default: no prompt shows an earlier unchecked answer, and checking a step uncovers only it', async () => {
  const { page, problems } = await session.openPage();
  const view = byHandFigure(page);
  assert.equal(await view.figure.getByLabel('Cover the numbers I have not checked yet').isChecked(), true,
    'a first-time reader is asked before being told');
  for (const row of ['dot products', 'scaled scores', 'weights', 'output']) {
    assert.doesNotMatch(await view.row(row).innerText(), /\d\.\d{3}/, `${row} row covered`);
  }
  await view.next.click();
  await view.next.click(); // step 3: softmax, with steps 1 and 2 unchecked
  const working3 = await view.figure.getByRole('list', { name: 'working of step 3' }).innerText();
  assert.doesNotMatch(working3, /0\.707/, `step 3's prompt must not show step 2's scores: ${working3}`);
  assert.match(await view.figure.getByText(/Step 2 is still covered/).innerText(), /your own step-2 numbers/);
  await view.next.click(); // step 4
  const working4 = await view.figure.getByRole('list', { name: 'working of step 4' }).innerText();
  assert.doesNotMatch(working4, /0\.401|0\.198/, `step 4's prompt must not show step 3's weights: ${working4}`);

  // Checking step 4 right uncovers step 4 alone: step 3 and its row stay "?".
  await view.field('your output x').fill('0.602');
  await view.field('your output y').fill('0.398');
  await view.check.click();
  assertClose(await rowNumbers(view.row('output')), [0.602, 0.398], 0.0005, 'output uncovered');
  assert.ok((await view.row('weights').innerText()).includes('?'), 'the weights stay covered');
  await view.tab(3).click();
  assert.doesNotMatch(await view.figure.getByRole('list', { name: 'working of step 3' }).innerText(), /0\.401/);
  // Switching the cover off shows everything.
  await view.figure.getByLabel('Cover the numbers I have not checked yet').uncheck();
  assert.deepEqual(await rowNumbers(view.row('weights')), [0.401, 0.198, 0.401]);
  await page.waitForFunction(() => location.search.includes('by-hand.hide=off'));
  assert.deepEqual(problems, []);
});

test('a link restores the vectors and the step; out-of-range values are clamped with a notice', async () => {
  const restored = await session.openPage({ search: `${UNCOVERED}&by-hand.qx=4&by-hand.step=4` });
  let view = byHandFigure(restored.page);
  assertClose(await rowNumbers(view.row('output')), [0.73, 0.27], 0.005, 'output');
  assert.equal(await view.tab(4).getAttribute('aria-selected'), 'true');
  assert.deepEqual(restored.problems, []);

  const clamped = await session.openPage({ search: '?by-hand.k1y=12' });
  view = byHandFigure(clamped.page);
  assert.equal(await view.field('k1 y').inputValue(), '4');
  assert.match(await clamped.page.getByRole('status', { name: 'Notes about the link' }).innerText(), /by-hand\.k1y = 12/);
  assert.deepEqual(clamped.problems, []);
});

test('the figure fits a 375 px phone screen', async () => {
  const { page, problems } = await session.openPage({ search: UNCOVERED, contextOptions: PHONE });
  const view = byHandFigure(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  for (const name of ['query and keys', 'values and output']) {
    const box = await view.figure.getByRole('group', { name, exact: true }).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `${name} plane inside the screen`);
  }
  assert.deepEqual(await rowNumbers(view.row('weights')), [0.401, 0.198, 0.401]);
  assert.deepEqual(problems, []);
});

test('"every token as query" shows its table where the eye is, and says so', async () => {
  for (const contextOptions of [undefined, PHONE]) {
    const { page, problems } = await session.openPage(contextOptions ? { contextOptions } : {});
    const view = byHandFigure(page);
    const button = view.preset('every token as query');
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const grid = view.figure.getByRole('grid', { name: 'weights of every token over every token' });
    await grid.waitFor();
    await page.waitForTimeout(800); // the smooth scroll
    const [buttonBox, gridBox] = [await button.boundingBox(), await grid.boundingBox()];
    const height = contextOptions ? 667 : 900;
    assert.ok(gridBox.y >= 0 && gridBox.y < height, `the table is on screen: top at ${gridBox.y}px of ${height}`);
    assert.ok(gridBox.y - (buttonBox.y + buttonBox.height) < 400, `and close under the preset (${gridBox.y - buttonBox.y}px)`);
    assert.match(await view.figure.getByRole('status').filter({ hasText: 'Every token as a query' }).textContent(),
      /3 × 3 table .* is shown under the presets/);
    // Covered by default: token 1 is the steps' query, so its weights would give step 3 away.
    const first = await grid.getByRole('gridcell').first().getAttribute('aria-label');
    assert.match(first, /covered until step 3 is checked/);
    assert.doesNotMatch(await view.figure.locator('.by-hand-full').innerText(), /0\.401|0\.602/);
    assert.deepEqual(problems, []);
  }
});

/** Screen boxes of a plane's texts and output dot, with what they say. */
async function planeMarks(plane) {
  return plane.evaluate((svg) => [...svg.querySelectorAll('.by-hand-label, .by-hand-weight-label, .by-hand-output-label, circle.by-hand-output')]
    .filter((node) => node.getAttribute('visibility') !== 'hidden' && (node.tagName === 'circle' || node.textContent))
    .map((node) => {
      const r = node.getBoundingClientRect();
      return { what: node.tagName === 'circle' ? 'output dot' : node.textContent, x: r.x, y: r.y, width: r.width, height: r.height };
    }));
}

function collisions(marks) {
  const found = [];
  const shrink = 1; // glyph boxes carry a little air
  for (let a = 0; a < marks.length; a += 1) {
    for (let b = a + 1; b < marks.length; b += 1) {
      const p = marks[a];
      const q = marks[b];
      if (p.x + shrink < q.x + q.width - shrink && q.x + shrink < p.x + p.width - shrink
        && p.y + shrink < q.y + q.height - shrink && q.y + shrink < p.y + p.height - shrink) found.push(`${p.what} / ${q.what}`);
    }
  }
  return found;
}

test('the planes: no labels collide at q = [−4, 4], the value plane keeps its own zoom, and by default q does not hide k1', async () => {
  const { page, problems } = await session.openPage({ search: `${UNCOVERED}&by-hand.qx=-4&by-hand.qy=4` });
  const view = byHandFigure(page);
  const keyPlane = view.figure.getByRole('group', { name: 'query and keys', exact: true });
  const valuePlane = view.figure.getByRole('group', { name: 'values and output', exact: true });
  const values = await planeMarks(valuePlane);
  assert.ok(values.some((m) => /^a 0\.\d\d$/.test(m.what)) && values.some((m) => m.what === 'output dot'), JSON.stringify(values));
  assert.deepEqual(collisions(values), [], 'value plane labels');
  assert.deepEqual(collisions(await planeMarks(keyPlane)), [], 'query plane labels');
  const ticks = (plane) => plane.locator('.by-hand-tick').allTextContents();
  const largest = (texts) => Math.max(...texts.map((t) => Math.abs(Number(t.replace('\u2212', '-')))));
  assert.equal(largest(await ticks(keyPlane)), 4, 'the query plane zooms out to hold q');
  assert.ok(largest(await ticks(valuePlane)) <= 2, `the value plane keeps its own zoom: ${await ticks(valuePlane)}`);
  assert.deepEqual(problems, []);

  // Default: q = k1 = [1, 0]. k1's shaft is drawn over q's wider one, so both show.
  const start = await session.openPage();
  const shown = await byHandFigure(start.page).figure.getByRole('group', { name: 'query and keys', exact: true }).evaluate((svg) => {
    const k1 = [...svg.querySelectorAll('line.by-hand-key')][0];
    const q = svg.querySelector('line.by-hand-query');
    return {
      // SVG paints in document order: k1 after q is k1 on top of q.
      keyOnTop: Boolean(q.compareDocumentPosition(k1) & Node.DOCUMENT_POSITION_FOLLOWING),
      qWidth: Number.parseFloat(getComputedStyle(q).strokeWidth),
      kWidth: Number.parseFloat(getComputedStyle(k1).strokeWidth),
      same: q.getAttribute('x2') === k1.getAttribute('x2') && q.getAttribute('y2') === k1.getAttribute('y2'),
    };
  });
  assert.ok(shown.same, 'q and k1 coincide by default');
  assert.ok(shown.keyOnTop, 'k1\'s shaft is drawn over q\'s');
  assert.ok(shown.qWidth > shown.kWidth + 2, `q's band (${shown.qWidth}) shows around k1 (${shown.kWidth})`);
  assert.deepEqual(start.problems, []);
});
