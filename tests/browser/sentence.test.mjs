// The learner's own sentence: typed into "Eight tokens, one knob", tagged by the lazily loaded
// tagger, followed by every figure built on the toy sentence, kept in the link; bad input gets
// a message and leaves the last valid sentence drawn.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PHONE, renderAllFigures, useBrowser } from './harness.mjs';
import { elementsReady, eventually, openHost } from './host-page.mjs';
import { CLIPBOARD, copyLink, toolbarOf } from './toolbar-helpers.mjs';

const session = useBrowser();
const DOG = 'The dog chased the ball because it was fast.';

function temperatureFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByLabel('temperature τ') });
  return {
    figure,
    field: figure.getByLabel(/sentence/i).and(figure.getByRole('textbox')),
    message: figure.locator('.sentence-message'),
    query: figure.getByLabel('query token'),
    onKey: figure.getByLabel('on key'),
    reset: figure.getByRole('button', { name: /lesson.s sentence/ }),
  };
}

async function apply(view, text) {
  await view.field.fill(text);
  await view.field.press('Enter');
}

/** Each figure that follows the sentence: whether it shows the word "chased", and its grid's size. */
async function followers(page) {
  return page.evaluate(() => Object.fromEntries(['temperature', 'all-at-once', 'heads', 'map', 'mistakes', 'roles'].map((name) => {
    const figure = document.querySelector(`[data-figure="${name}"]`);
    const grid = figure.querySelector('[role="grid"]');
    return [name, { chased: /chased/.test(figure.innerText), cells: grid ? grid.querySelectorAll('[role="gridcell"]').length : 0 }];
  })));
}

test('typing a sentence: "it" goes to "dog"; every toy-sentence figure follows; the link keeps it', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.figure.waitFor();
  assert.equal(await view.field.inputValue(), 'the cat sat on the mat because it');
  await apply(view, DOG);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('sentence')?.startsWith('The dog'));
  await view.figure.getByRole('gridcell').nth(99).waitFor();
  assert.equal(await view.figure.getByRole('gridcell').count(), 100, 'a 10×10 heat map');
  // The query moves to the last pronoun, "it" (6), whose largest weight is on "dog".
  await view.query.waitFor();
  assert.match(await view.query.inputValue().catch(() => view.query.textContent()), /6|it/);
  assert.match(await view.onKey.textContent(), /dog/);
  // The features table shows where each token's features came from.
  const table = view.figure.getByRole('table', { name: /Your tokens/ });
  assert.equal(await table.getByRole('checkbox', { name: 'animate: dog (1)' }).isChecked(), true);
  assert.equal(await table.getByRole('checkbox', { name: 'animate: ball (4)' }).isChecked(), false);
  assert.match(await table.getByRole('row', { name: /chased/ }).textContent(), /guessed/);
  await renderAllFigures(page);
  for (const [name, { chased, cells }] of Object.entries(await followers(page))) {
    assert.ok(chased, `${name} shows the new tokens`);
    assert.equal(cells, 100, `${name}'s first map is 10 × 10`);
  }
  // The link round trip.
  const link = page.url();
  const again = await session.openPage({ search: new URL(link).search });
  const view2 = temperatureFigure(again.page);
  await view2.figure.getByRole('gridcell').nth(99).waitFor();
  assert.equal(await view2.field.inputValue(), DOG);
  assert.match(await view2.onKey.textContent(), /dog/);
  // Back to the lesson.
  await view2.reset.click();
  await view2.figure.getByRole('gridcell').nth(63).waitFor();
  await again.page.waitForFunction(() => !new URL(location.href).searchParams.has('sentence'));
  assert.equal(await view2.figure.getByRole('gridcell').count(), 64);
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
});

test('bad input gets a message and the last valid sentence stays drawn', async () => {
  const { page, problems } = await session.openPage();
  const view = temperatureFigure(page);
  await view.figure.getByRole('gridcell').nth(63).waitFor();
  const cases = [
    ['', /empty/],
    ['hello', /One token/],
    ['a b c d e f g h i j k l m n o p q r s', /19 tokens.*at most 16/],
    ['x'.repeat(10_000), /10,000 characters/],
    ['?! ... ,', /only punctuation/],
  ];
  for (const [text, pattern] of cases) {
    await apply(view, text);
    assert.match(await view.message.textContent(), pattern, JSON.stringify(text.slice(0, 20)));
    assert.equal(await view.figure.getByRole('gridcell').count(), 64, 'the lesson stays drawn');
  }
  for (const [text, pattern, count] of [
    ['Привет мир 😀 !', /not English words/, 16],
    ['<b>hi</b> there', /plain text/, 81],
    ['القطة جلست', /right-to-left/, 4],
  ]) {
    await apply(view, text);
    await page.waitForFunction((t) => new URL(location.href).searchParams.get('sentence') === t, text);
    if (count) await view.figure.getByRole('gridcell').nth(count - 1).waitFor();
    assert.match(await view.message.textContent(), pattern);
  }
  assert.equal(await page.evaluate(() => window.alertCalled ?? null), null);
  assert.equal(await page.locator('[data-figure] b').count(), 0, 'markup stays text');
  assert.deepEqual(problems, []);
});

test('a link with a bad sentence gets a notice and the lesson\'s sentence', async () => {
  const { page } = await session.openPage({ search: `?sentence=${encodeURIComponent('one')}` });
  const view = temperatureFigure(page);
  await view.figure.getByRole('gridcell').nth(63).waitFor();
  assert.equal(await view.figure.getByRole('gridcell').count(), 64);
  assert.match(await page.locator('body').innerText(), /sentence = one, which the figures cannot read/);
});

test('an embed and an element take the sentence; a 375 px phone fits the field', async () => {
  const { page, problems } = await session.openPage({ search: `embed.html?figure=map&sentence=${encodeURIComponent(DOG)}` });
  const grid = page.getByRole('grid').first();
  await grid.getByRole('gridcell').nth(99).waitFor();
  assert.equal(await grid.getByRole('gridcell').count(), 100, 'the map of the ten tokens');
  assert.match(await page.locator('[data-figure="map"]').innerText(), /chased/);
  assert.deepEqual(problems, []);
  const phone = await session.openPage({ contextOptions: PHONE });
  const view = temperatureFigure(phone.page);
  await view.figure.waitFor();
  await view.field.scrollIntoViewIfNeeded();
  const box = await view.field.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `the field fits 375 px: ${JSON.stringify(box)}`);
  assert.equal(await phone.page.evaluate(() => document.documentElement.scrollWidth), 375, 'no sideways scroll');
});

test('switching "dog" off as animate moves "it"; the switches are kept in the link; the worked failure loads', async () => {
  const { page, problems } = await session.openPage({ search: `?sentence=${encodeURIComponent(DOG)}` });
  const view = temperatureFigure(page);
  await view.figure.getByRole('gridcell').nth(99).waitFor();
  assert.equal(await view.query.inputValue(), '6', 'the query is the sentence\'s pronoun, "it"');
  assert.match(await view.onKey.textContent(), /dog/);
  await view.figure.getByRole('checkbox', { name: 'animate: dog (1)' }).uncheck();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('features') === '1-animate');
  assert.doesNotMatch(await eventually(() => view.onKey.textContent(), null, { timeout: 2000 }), /dog/);
  await view.figure.getByRole('checkbox', { name: 'animate: ball (4)' }).check();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('features') === '1-animate,4+animate');
  assert.match(await eventually(() => view.onKey.textContent(), '\u201cball\u201d (4)'), /ball/);
  assert.match(await view.figure.getByRole('table', { name: /Your tokens/ }).getByRole('row', { name: /ball/ }).textContent(), /changed by you/);
  // The link keeps the switches.
  const again = await session.openPage({ search: new URL(page.url()).search });
  const view2 = temperatureFigure(again.page);
  await view2.figure.getByRole('gridcell').nth(99).waitFor();
  assert.equal(await view2.figure.getByRole('checkbox', { name: 'animate: ball (4)' }).isChecked(), true);
  assert.match(await view2.onKey.textContent(), /ball/);
  // The worked failure: the pronoun head sends "it" to the animate "dog", though "it" is the ball.
  await view2.figure.getByRole('button', { name: /worked failure/ }).click();
  await again.page.waitForFunction(() => new URL(location.href).searchParams.get('sentence') === 'the ball hit the dog because it was hard');
  assert.equal(new URL(again.page.url()).searchParams.has('features'), false, 'a new sentence starts from the tagger\'s features');
  await view2.figure.getByText(/reads animacy|animacy is all/).waitFor();
  assert.match(await view2.onKey.textContent(), /dog/);
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
});

test('Embed code and Copy link carry the sentence; an element takes it as an attribute', async () => {
  const { page, problems } = await session.openPage({ search: `?sentence=${encodeURIComponent(DOG)}`, contextOptions: CLIPBOARD });
  const view = temperatureFigure(page);
  await view.figure.getByRole('gridcell').nth(99).waitFor();
  const link = new URL(await copyLink(page, 'temperature'));
  assert.equal(link.searchParams.get('sentence'), DOG);
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).click();
  const frame = await toolbar.getByLabel('As an iframe, with the script that sizes it').inputValue();
  const element = await toolbar.getByLabel('As an element, with its script').inputValue();
  assert.match(frame, /embed\.html\?figure=temperature&amp;query=6&amp;tau=1&amp;sentence=The\+dog\+chased/);
  assert.match(element, /<attention-figure name="temperature" query="6" tau="1" sentence="The dog chased the ball because it was fast\.">/);
  assert.deepEqual(problems, []);

  const host = await openHost(session, `<script src="attention-figure.js"></script><attention-figure name="map" sentence="${DOG}"></attention-figure>`);
  await elementsReady(host.page);
  const figure = host.page.locator('attention-figure');
  await figure.getByRole('grid').first().getByRole('gridcell').nth(99).waitFor();
  assert.ok(await figure.getByRole('gridcell', { name: /key “chased”/ }).count() > 0, 'the element draws the new tokens');
  await figure.evaluate((el) => el.setAttribute('sentence', 'Birds fly.'));
  assert.equal(await eventually(() => figure.getByRole('grid').first().getByRole('gridcell').count(), 9), 9, 'a 3 × 3 map');
  assert.deepEqual(host.problems, []);
});

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
test('no axe violations in the field, its messages and the features table, at 1280 and 375 px', async () => {
  for (const contextOptions of [undefined, PHONE]) {
    const { page } = await session.openPage({ search: `?sentence=${encodeURIComponent(DOG)}`, contextOptions: { ...(contextOptions ?? { viewport: { width: 1280, height: 900 } }), bypassCSP: true } });
    const view = temperatureFigure(page);
    await view.figure.getByRole('gridcell').nth(99).waitFor();
    await apply(view, 'hello');
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document.querySelector('#figure-temperature .sentence-field'), {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      });
      return result.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    });
    assert.deepEqual(violations, [], contextOptions ? '375 px' : '1280 px');
  }
});
