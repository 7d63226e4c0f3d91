// The "Eight tokens, one knob" figure, checked through what a learner sees and what a
// screen reader hears: readout texts, control labels and the accessible names of cells and bars.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();

/** Locators for the figure, found by its controls' labels rather than by ids or classes. */
function temperatureFigure(page) {
  // Found by its temperature slider: other figures have a "query token" picker too.
  const figure = page.getByRole('figure').filter({ has: page.getByLabel('temperature τ') });
  return {
    figure,
    query: figure.getByLabel('query token'),
    tau: figure.getByLabel('temperature τ'),
    largest: figure.getByLabel('largest weight'),
    onKey: figure.getByLabel('on key'),
    entropy: figure.getByLabel('entropy'),
    selectedRow: figure.getByRole('row', { selected: true }),
    bars: figure.getByRole('list', { name: 'weights of the picked query over the keys' }).getByRole('listitem'),
  };
}

async function barWeights(view) {
  const names = await view.bars.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
  return names.map(trailingNumber);
}

test('the page loads under its CSP with no console errors and draws the figure', async () => {
  const served = await fetch(session.url);
  assert.match(served.headers.get('content-security-policy') ?? '', /script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/);
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await assert.doesNotReject(view.figure.waitFor());
  assert.equal(await page.getByRole('heading', { level: 2, name: 'Eight tokens, one knob' }).count(), 1);
  assert.equal(await view.figure.getByRole('gridcell').count(), 64, 'an 8×8 heat map');
  assert.equal(await view.bars.count(), 8);
  assert.match(await view.figure.locator('figcaption').innerText(), /the cat sat on the mat because it/);
  assert.equal(await page.locator('math').count() > 0, true, 'formulas are rendered as MathML');
  assert.deepEqual(problems, []);
});

test('by default the query is "it" and its largest weight is on "cat" at τ = 1', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  assert.equal(await view.query.inputValue(), '7');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '1');
  assert.match(await view.selectedRow.getAttribute('aria-label'), /“it” \(7\)/);
  assert.match(await view.onKey.innerText(), /“cat” \(1\)/);

  const weights = await barWeights(view);
  const sum = weights.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 0.002, `the row's weights sum to 1 (got ${sum})`);
  const largest = Number(await view.largest.innerText());
  assert.ok(Math.abs(largest - Math.max(...weights)) < 0.001, 'the readout matches the largest bar');
  assert.equal(weights.indexOf(Math.max(...weights)), 1, 'the largest bar is "cat"');
  assert.deepEqual(problems, []);
});

test('τ at its minimum makes the row one-hot on "cat"', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.tau.focus();
  await page.keyboard.press('Home');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '0.01');
  assert.ok(Number(await view.largest.innerText()) > 0.99, `largest weight ${await view.largest.innerText()}`);
  assert.match(await view.onKey.innerText(), /“cat”/);
  const weights = await barWeights(view);
  assert.ok(weights[1] > 0.99, `"cat" gets ${weights[1]}`);
  assert.ok(Number.parseFloat(await view.entropy.innerText()) < 0.05, 'entropy near zero');
  await page.waitForFunction(() => location.search.includes('tau=0.01'));
  assert.deepEqual(problems, []);
});

test('τ at its maximum flattens the row to 1/8 everywhere', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.tau.focus();
  await page.keyboard.press('End');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '100');
  const weights = await barWeights(view);
  assert.equal(weights.length, 8);
  for (const weight of weights) assert.ok(Math.abs(weight - 1 / 8) < 0.01, `weight ${weight} is not about 1/8`);
  const entropy = Number.parseFloat(await view.entropy.innerText());
  assert.ok(Math.abs(entropy - Math.log(8)) < 0.01, `entropy ${entropy} ≈ ln 8`);
  assert.deepEqual(problems, []);
});

test('the query picker moves the highlighted row and the bars', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.query.selectOption('1');
  assert.match(await view.selectedRow.getAttribute('aria-label'), /“cat” \(1\)/);
  assert.equal(await view.selectedRow.count(), 1, 'exactly one row is highlighted');
  assert.match(await view.figure.getByText(/^Weights of query/).innerText(), /“cat”/);

  await view.query.selectOption('4');
  assert.match(await view.selectedRow.getAttribute('aria-label'), /“the” \(4\)/);
  assert.deepEqual(problems, []);
});

test('clicking a heat-map cell picks its row; arrow keys move between cells', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  const cell = view.figure.getByRole('gridcell', { name: /query “sat” \(2\), key “mat” \(5\)/ });
  await cell.click();
  assert.equal(await view.query.inputValue(), '2');
  assert.match(await view.selectedRow.getAttribute('aria-label'), /“sat” \(2\)/);

  await cell.focus();
  await page.keyboard.press('ArrowDown');
  const focusedName = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(focusedName, /^query “on” \(3\), key “mat” \(5\): /);
  const exactValue = trailingNumber(focusedName);
  assert.ok(exactValue >= 0 && exactValue <= 1, `a weight, got ${exactValue}`);
  const readout = view.figure.locator('p').filter({ hasText: /^query “on” \(3\), key “mat” \(5\)/ });
  assert.equal(await readout.innerText(), focusedName, 'the visible readout shows the focused cell');
  await page.keyboard.press('Enter');
  assert.equal(await view.query.inputValue(), '3');
  assert.deepEqual(problems, []);
});

test('a link restores the figure, and out-of-range values are clamped with a notice', async () => {
  const restored = await session.openPage({ search: '?temperature.query=2&temperature.tau=0.5' });
  let view = temperatureFigure(restored.page);
  assert.equal(await view.query.inputValue(), '2');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '0.5');
  assert.deepEqual(restored.problems, []);

  const clamped = await session.openPage({ search: '?temperature.query=nine&temperature.tau=1000' });
  view = temperatureFigure(clamped.page);
  assert.equal(await view.query.inputValue(), '7', 'an unreadable query falls back to the default');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '100', 'τ is clamped to its maximum');
  const notices = await clamped.page.getByRole('status', { name: 'Notes about the link' }).innerText();
  assert.match(notices, /temperature.query = nine/);
  assert.match(notices, /temperature.tau = 1000/);
  assert.deepEqual(clamped.problems, []);
});

test('the figure fits a 375 px phone screen without sideways scrolling', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const view = temperatureFigure(page);
  const box = await view.figure.getByRole('grid').boundingBox();
  assert.ok(box.width <= 375, `heat map ${box.width}px wide`);
  assert.match(await view.onKey.innerText(), /“cat”/);
  assert.deepEqual(problems, []);
});

test('the values a τ step rewrites stay in boxes of one size, and every value fits its box', async () => {
  // The τ slider's value, the largest weight, the entropy and the bars' values are printed in
  // boxes of fixed size, so that a step lays out those boxes and not the page (.fixed-text).
  // Such a box must hold whatever it prints, at both ends of τ, on a phone as on a desktop.
  for (const contextOptions of [undefined, PHONE]) {
    const { page, problems } = await session.openPage(contextOptions ? { contextOptions } : {});
    const view = temperatureFigure(page);
    const boxes = () => view.figure.locator('.fixed-text').evaluateAll((nodes) => nodes.map((node) => ({
      text: node.textContent, width: node.getBoundingClientRect().width, overflow: node.scrollWidth - node.clientWidth,
    })));
    const atOne = await boxes();
    assert.ok(atOne.length >= 11, `the slider's value, two readouts and eight bar values (${atOne.length})`);
    await view.tau.focus();
    for (const key of ['End', 'PageDown', 'Home']) {
      await page.keyboard.press(key);
      const now = await boxes();
      assert.deepEqual(now.map((box) => box.width), atOne.map((box) => box.width), `the boxes keep their size (${key})`);
      for (const box of now) assert.ok(box.overflow <= 0, `"${box.text}" fits its box (${key})`);
    }
    assert.equal(await view.largest.innerText(), '1.000', 'at the smallest τ one key takes all the weight');
    assert.deepEqual(problems, []);
  }
});

test('cells that print the same number are painted the same colour', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.tau.focus();
  await page.keyboard.press('End'); // τ = 100: every weight near 1/8, printed 0.12 or 0.13
  await page.waitForFunction(() => document.querySelector('#figure-temperature [role=gridcell]').drawn.text === '0.12'
    || document.querySelector('#figure-temperature [role=gridcell]').drawn.text === '0.13');
  const drawn = await view.figure.locator('[role=gridcell]').evaluateAll((cells) => cells.map((cell) => ({ ...cell.drawn })));
  const fillsByText = new Map();
  for (const { text, fill } of drawn) fillsByText.set(text, new Set([...(fillsByText.get(text) ?? []), fill]));
  assert.ok(fillsByText.size >= 2, `more than one printed number: ${[...fillsByText.keys()]}`);
  for (const [text, fills] of fillsByText) assert.equal(fills.size, 1, `every "${text}" cell has one colour: ${[...fills]}`);
  assert.deepEqual(problems, []);
});

test('on a phone, the bars and lines under the map wait off screen; their spoken names do not', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const view = temperatureFigure(page);
  const list = view.figure.getByRole('list', { name: 'weights of the picked query over the keys' });
  const printed = () => list.evaluate((bars) => [...bars.querySelectorAll('.bar-value')].map((cell) => cell.textContent));
  const lines = () => view.figure.locator('.attention-lines-canvas').evaluate((c) => c.drawnLines.map((l) => l.width));
  await list.scrollIntoViewIfNeeded();
  const seenAtOne = await printed();
  assert.deepEqual(seenAtOne.map(Number), (await barWeights(view)).map((w) => Number(w.toFixed(3))), 'on screen, each bar prints its weight');
  const linesAtOne = await lines();
  // The slider in the middle of the screen, as scrolling to it leaves it: the bars and the
  // lines are then more than a fifth of a screen below the screen's bottom.
  await view.tau.evaluate((input) => { input.scrollIntoView({ block: 'center' }); input.focus({ preventScroll: true }); });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  assert.equal(await list.evaluate((bars) => bars.getBoundingClientRect().top > 1.2 * innerHeight), true, 'the bars are off screen');
  await page.keyboard.press('End'); // τ = 100: every weight near 1/8
  await page.waitForFunction(() => /0\.1[23]\d+/.test(document.querySelector('#figure-temperature [role=listitem]').getAttribute('aria-label')));
  const names = await barWeights(view);
  assert.ok(names.every((w) => Math.abs(w - 0.125) < 0.01), `the names follow at once: ${names}`);
  assert.deepEqual(await printed(), seenAtOne, 'the printed values wait');
  assert.deepEqual(await lines(), linesAtOne, 'the lines wait');
  assert.equal(await view.largest.innerText(), names.reduce((a, b) => Math.max(a, b)).toFixed(3), 'the readouts do not wait');
  // Scrolled to, they draw the newest weights.
  await list.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#figure-temperature .bar-value').textContent.startsWith('0.1'));
  assert.deepEqual((await printed()).map(Number), names.map((w) => Number(w.toFixed(3))), 'each bar prints its new weight');
  await view.figure.locator('.attention-lines-frame').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const widths = document.querySelector('#figure-temperature .attention-lines-canvas').drawnLines.map((l) => l.width);
    return Math.max(...widths) - Math.min(...widths) < 0.2;
  });
  assert.notDeepEqual(await lines(), linesAtOne, 'the lines are drawn for τ = 100');
  assert.deepEqual(problems, []);
});

test('the lines from the query to every key are as wide as the weights, in the theme\'s colour', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  const picture = view.figure.getByRole('img', { name: 'lines from the picked query to every key, as wide as their weights' });
  // The lines are painted on the canvas under the words; it keeps what it drew (drawnLines).
  const canvas = picture.locator('xpath=preceding-sibling::canvas');
  const drawn = () => canvas.evaluate((c) => c.drawnLines.map((l) => ({ ...l })));
  const widths = async () => (await drawn()).map((l) => l.width);
  const weights = await barWeights(view);
  const atOne = await widths();
  assert.equal(atOne.length, 8);
  assert.equal(atOne.indexOf(Math.max(...atOne)), weights.indexOf(Math.max(...weights)), 'the widest line goes to "cat"');
  // Every line leaves the picked query's word.
  const starts = [...new Set((await drawn()).map((l) => l.y1))];
  assert.equal(starts.length, 1);
  // The canvas holds that drawing: the middle of the widest line is painted in the bar colour,
  // and the middle between two thin lines' ends is not.
  const colourAt = (where) => canvas.evaluate((c, [x, y]) => {
    const ratio = c.width / c.getBoundingClientRect().width;
    return [...c.getContext('2d').getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data];
  }, where);
  const lines = await drawn();
  const widest = lines[atOne.indexOf(Math.max(...atOne))];
  const middle = [(widest.x1 + widest.x2) / 2, (widest.y1 + widest.y2) / 2];
  const [r, g, b, a] = await colourAt(middle);
  assert.ok(a > 200, `the widest line is painted at its middle (alpha ${a})`);
  const barColour = await view.figure.locator('.attention-lines-ink').evaluate((el) => getComputedStyle(el).color);
  assert.equal(`rgb(${r}, ${g}, ${b})`, barColour, 'in the bar colour');
  const [, , , clear] = await colourAt([lines[0].x2 - 1, (lines[5].y2 + lines[6].y2) / 2]);
  assert.equal(clear, 0, 'nothing painted between two lines\' ends');
  // A new theme while the page is open: the lines are painted again in its bar colour.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction((before) => getComputedStyle(document.querySelector('#figure-temperature .attention-lines-ink')).color !== before, barColour);
  const darkColour = await view.figure.locator('.attention-lines-ink').evaluate((el) => getComputedStyle(el).color);
  await page.waitForFunction(([x, y, want]) => {
    const c = document.querySelector('#figure-temperature .attention-lines-canvas');
    const ratio = c.width / c.getBoundingClientRect().width;
    const [r, g, b] = c.getContext('2d').getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
    return `rgb(${r}, ${g}, ${b})` === want;
  }, [...middle, darkColour]);
  await page.emulateMedia({ colorScheme: null });
  await view.tau.focus();
  await page.keyboard.press('End'); // τ = 100: every weight ≈ 1/8, so every line alike
  const flat = await widths();
  assert.ok(Math.max(...flat) - Math.min(...flat) < 0.2, `widths ${flat}`);
  await view.query.selectOption('2');
  const moved = [...new Set((await drawn()).map((l) => l.y1))];
  assert.notDeepEqual(moved, starts, 'the lines now leave "sat"');
  assert.deepEqual(problems, []);
});

test('terms come before they are used: entropy and nats, the features, τ\'s range, w_a, and ties at the lowest τ', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=0.01&temperature.query=3' });
  const view = temperatureFigure(page);
  // Where each term first appears in the page's text, against where it is explained.
  const first = await page.evaluate(() => {
    const text = document.querySelector('main').innerText;
    const at = (pattern) => text.search(pattern);
    return {
      entropy: at(/entropy/i), nats: at(/\bnats?\b/), definition: at(/Its entropy,/),
      figure: text.indexOf(document.querySelector('#figure-temperature figcaption').innerText.slice(0, 40)),
      // (<q> draws its quotation marks with CSS, which innerText leaves out.)
      code: at(/code 1/), codeExplained: at(/code 1.? to .?code 16.? are the word's\s+identity code/),
      pos: at(/pos cos/), posExplained: at(/pos cos 1.? to .?pos sin 16.?, give the token's place/),
    };
  });
  assert.ok(first.definition >= 0 && first.definition <= first.entropy + 40, `entropy is defined where it first appears (${JSON.stringify(first)})`);
  assert.ok(first.nats > first.definition && first.definition < first.figure, 'nats come after the definition, before the figure');
  assert.equal(first.code, first.codeExplained, 'the identity-code features are explained where first named');
  assert.equal(first.pos, first.posExplained, 'the position features are explained where first named');
  assert.match(await page.locator('#eight-tokens').innerText(), /from a hundredth to a hundred/);
  await view.tau.focus();
  await page.keyboard.press('Home');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '0.01');
  await page.keyboard.press('End');
  assert.equal(await view.tau.getAttribute('aria-valuetext'), '100');
  // Bahdanau's vector is w_a, not v (v is a value).
  const additive = await page.locator('#figure-by-hand .by-hand-compare').innerText();
  assert.match(additive, /w\s*a\s*ᵀ tanh/);
  assert.doesNotMatch(additive, /vᵀ/);
  // At the lowest τ a tie is no hard choice: "on" (3) splits between "cat" and itself.
  await page.keyboard.press('Home');
  const weights = await barWeights(view);
  assert.ok(Math.abs(weights[1] - 0.5) < 1e-3 && Math.abs(weights[3] - 0.5) < 1e-3, `"on" at τ = 0.01: ${weights}`);
  assert.equal(await view.onKey.innerText(), '“cat” (1) and “on” (3)', 'the readout reports the tie');
  assert.match(await page.locator('#eight-tokens').innerText(), /a\s+tie stays a tie at every temperature/);
  assert.deepEqual(problems, []);
});
