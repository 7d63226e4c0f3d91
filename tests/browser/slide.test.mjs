// The slide layout: a teacher shows one figure on a 1280×720 screen (a reveal.js slide, a
// projector). With layout=slide every figure, in the iframe embed and as the element, fits
// that screen without scrolling, each of its steps too, and every piece of its text is at
// least 18 px (text inside the SVG charts at least 16 px: tick labels and the values printed
// in heat-map cells, which must fit their cells). The only box allowed to scroll is by-hand's
// C++ listing (a named tab stop: its 30 lines do not fit at 18 px). The step strip works from
// the keyboard, the toolbar's Present button shows a figure full screen in this layout (or
// as an overlay where full screen is refused) and Escape brings focus back to the button,
// and axe finds nothing to fault.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { useBrowser } from './harness.mjs';
import { elementsReady, openHost } from './host-page.mjs';
import { FLOORS, slideReport } from './slide-check.mjs';

const session = useBrowser();
const SLIDE = { viewport: { width: 1280, height: 720 } };
// Two boxes may scroll sideways on a slide, each a named tab stop: the by-hand code, and the
// all-at-once output O, which is n × 64 since the toy model widened to 64 features for the
// learner's own sentences (64 columns of printed numbers do not fit 1280 px at 16 px text).
const ALLOWED_SCROLL = /^(pre\.by-hand-code scrolls|div\.all-at-once-scroll scrolls sideways$)/;
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The figures of the page, by name, from its own markup. */
async function allFigures() {
  const html = await (await fetch(new URL('index.html', session.url))).text();
  return [...html.matchAll(/data-figure="([^"]+)"/g)].map((match) => match[1]);
}

const settle = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)))));

/** Checks the page (or the element `host`) in each of its steps; returns what was measured. */
async function checkEveryStep(page, label, { host = null } = {}) {
  const steps = host ? host.locator('.slide-step') : page.locator('.slide-step');
  const count = await steps.count();
  const seen = [];
  for (let step = 0; step < Math.max(1, count); step++) {
    if (count) await steps.nth(step).click();
    await settle(page);
    const where = `${label}${count ? `, step ${step + 1} of ${count}` : ''}`;
    const report = await page.evaluate(slideReport, { host: host ? await host.elementHandle() : null, ...FLOORS });
    const size = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth }));
    assert.ok(size.height <= 720, `${where}: the page is ${size.height} px high, more than the slide's 720`);
    assert.ok(size.width <= 1280, `${where}: the page is ${size.width} px wide, more than the slide's 1280`);
    assert.ok(report.figureBox && report.figureBox.bottom <= 720.5 && report.figureBox.right <= 1280.5,
      `${where}: the figure reaches ${JSON.stringify(report.figureBox)}`);
    assert.deepEqual(report.small, [], `${where}: text below the floor`);
    assert.deepEqual(report.scrolling.filter((line) => !ALLOWED_SCROLL.test(line)), [], `${where}: a box scrolls`);
    seen.push(Math.round(report.figureBox.height));
  }
  return seen;
}

test('every figure fits a 1280×720 slide in the embed, each step, with text of 18 px or more', async () => {
  const figures = await allFigures();
  assert.equal(figures.length, 13, figures.join(', '));
  for (const scheme of ['light', 'dark']) {
    const context = await session.browser.newContext({ ...SLIDE, colorScheme: scheme });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    for (const name of figures) {
      await page.goto(new URL(`embed.html?figure=${name}&layout=slide`, session.url).href);
      await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.alLayout), 'slide');
      await checkEveryStep(page, `${name} (${scheme})`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('every figure fits as <attention-figure layout="slide"> on a 1280×720 host page', async () => {
  const figures = await allFigures();
  const { page, context, problems } = await openHost(session,
    '<attention-figure layout="slide"></attention-figure>',
    { head: '<style>body { margin: 0 }</style><script src="attention-figure.js"></script>', contextOptions: SLIDE });
  const element = page.locator('attention-figure');
  for (const name of figures) {
    await element.evaluate((e, figure) => e.setAttribute('name', figure), name);
    await page.waitForFunction((figure) => {
      const e = document.querySelector('attention-figure');
      return e.dataset.labReady === 'true' && e.shadowRoot.querySelector(`[data-figure="${figure}"] .figure-toolbar`);
    }, name, { timeout: 30000 });
    await checkEveryStep(page, `element ${name}`, { host: element });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('layout is a presentation key: a bad value is noted and the page layout used; removing it returns the page layout', async () => {
  const context = await session.browser.newContext(SLIDE);
  const page = await context.newPage();
  await page.goto(new URL('embed.html?figure=temperature&layout=poster', session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
  assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-al-layout')), false);
  assert.match(await page.locator('#notices').innerText(), /layout = poster, which is not one of page, slide; using page/);
  // The page layout is the one 17 px text of the lesson.
  assert.equal(await page.locator('.figure').evaluate((f) => getComputedStyle(f).fontSize), '17px');
  await context.close();

  const host = await openHost(session, '<attention-figure name="temperature" layout="slide"></attention-figure>',
    { head: '<script src="attention-figure.js"></script>', contextOptions: SLIDE });
  await elementsReady(host.page);
  const frameLayout = () => host.page.evaluate(() => document.querySelector('attention-figure').shadowRoot.querySelector('.al-frame').dataset.alLayout ?? null);
  assert.equal(await frameLayout(), 'slide');
  await host.page.evaluate(() => document.querySelector('attention-figure').removeAttribute('layout'));
  await host.page.waitForFunction(() => !document.querySelector('attention-figure').shadowRoot.querySelector('.al-frame').hasAttribute('data-al-layout'));
  assert.equal(await frameLayout(), null);
  assert.equal(await host.page.evaluate(() => document.querySelector('attention-figure').getAttribute('layout')), null, 'not read as a setting');
  assert.deepEqual(host.problems, []);
  await host.context.close();
});

test('the step strip and by-hand\'s step tabs work from the keyboard, one part at a time', async () => {
  const context = await session.browser.newContext(SLIDE);
  const page = await context.newPage();
  await page.goto(new URL('embed.html?figure=why-scale&layout=slide', session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
  const strip = page.getByRole('tablist', { name: 'Parts of this figure' });
  const tabs = strip.getByRole('tab');
  assert.equal(await tabs.count(), 2);
  const shown = () => page.evaluate(() => [...document.querySelectorAll('.why-scale-part')].map((part) => part.getBoundingClientRect().height > 0));
  assert.deepEqual(await shown(), [true, false]);
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
  assert.equal(await tabs.nth(1).evaluate((tab) => tab === document.activeElement), true, 'focus moves with the arrow');
  assert.deepEqual(await shown(), [false, true]);
  assert.equal(await tabs.first().getAttribute('tabindex'), '-1', 'one tab stop: the picked tab');
  await page.keyboard.press('Home');
  assert.deepEqual(await shown(), [true, false]);
  await page.keyboard.press('ArrowLeft'); // wraps round to the last
  assert.deepEqual(await shown(), [false, true]);

  // by-hand: its own four step tabs show one step at a time, without the table of all four.
  await page.goto(new URL('embed.html?figure=by-hand&layout=slide', session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
  const visibleSteps = () => page.evaluate(() => [...document.querySelectorAll('.by-hand-step-panel')]
    .map((panel, i) => (panel.getBoundingClientRect().height > 0 ? i + 1 : 0)).filter(Boolean));
  assert.deepEqual(await visibleSteps(), [1]);
  assert.equal(await page.locator('.by-hand-steps > .by-hand-table-wrap').isVisible(), false);
  await page.getByRole('tab', { name: /^1\. Dot products/ }).focus();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await visibleSteps(), [2]);
  assert.match(await page.evaluate(() => document.activeElement.textContent), /^2\. Scale by/);
  await context.close();
});

/** The Present button of a figure on the page; `refuse` makes requestFullscreen fail, as some hosts do. */
async function presentOnThePage(refuse) {
  const context = await session.browser.newContext(SLIDE);
  if (refuse) await context.addInitScript(() => { Element.prototype.requestFullscreen = () => Promise.reject(new TypeError('refused')); });
  const page = await context.newPage();
  await page.goto(new URL('index.html#figure-learn', session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 30000 });
  const figure = page.locator('[data-figure="learn"]');
  const button = figure.getByRole('button', { name: 'Present', exact: true });
  await button.scrollIntoViewIfNeeded();
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-figure="learn"]').dataset.alLayout === 'slide');
  await settle(page);
  const mode = await figure.getAttribute('data-al-presenting');
  if (refuse) assert.equal(mode, 'overlay');
  // A browser may refuse full screen on its own (some headless ones do): the overlay it is then.
  else assert.ok(['fullscreen', 'overlay'].includes(mode), mode);
  if (mode === 'fullscreen') assert.equal(await page.evaluate(() => document.fullscreenElement?.dataset.figure), 'learn');
  const box = await figure.boundingBox();
  assert.deepEqual([box.x, box.y, box.width, box.height].map(Math.round), [0, 0, 1280, 720], `${mode}: the figure fills the screen`);
  const report = await page.evaluate(({ floors }) => {
    const figureElement = document.querySelector('[data-figure="learn"]');
    // Measure only the presented figure: the page around it is hidden behind it.
    const small = [];
    const walker = document.createTreeWalker(figureElement, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent.trim() || parent.closest('.visually-hidden, option')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rect = range.getBoundingClientRect();
      if (!rect.width || !rect.height || getComputedStyle(parent).visibility !== 'visible') continue;
      const size = parseFloat(getComputedStyle(parent).fontSize);
      if (size < (parent.closest('svg') ? floors.minChartText : floors.minText)) small.push(`${size} "${node.textContent.trim()}"`);
    }
    return { small, scrollHeight: figureElement.scrollHeight };
  }, { floors: FLOORS });
  assert.deepEqual(report.small, [], `${mode}: text below the floor`);
  assert.ok(report.scrollHeight <= 720, `${mode}: the figure's content is ${report.scrollHeight} px high`);
  const exit = figure.getByRole('button', { name: 'Exit presentation' });
  assert.equal(await exit.getAttribute('aria-pressed'), 'true');
  assert.equal(await exit.evaluate((b) => b === document.activeElement), true, 'focus stays on the button');
  // Tab into the figure and use it, then leave with Escape.
  await figure.getByRole('tab', { name: /Curves/ }).click();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('[data-figure="learn"]').hasAttribute('data-al-layout'));
  assert.equal(await figure.getAttribute('data-al-presenting'), null);
  assert.equal(await page.evaluate(() => document.fullscreenElement), null);
  assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus back on the Present button');
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  assert.ok((await figure.evaluate((f) => parseFloat(getComputedStyle(f).fontSize))) < 18, 'back at the page\'s text size');
  await context.close();
}

test('Present shows the figure full screen in the slide layout; Escape returns, focus on the button', async () => {
  await presentOnThePage(false);
});

test('Present falls back to an overlay where full screen is refused; Escape returns, focus on the button', async () => {
  await presentOnThePage(true);
});

test('axe finds no violations in the slide layout', async () => {
  for (const [name, scheme] of [['temperature', 'dark'], ['learn', 'light'], ['check-yourself', 'dark']]) {
    const context = await session.browser.newContext({ ...SLIDE, colorScheme: scheme, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(new URL(`embed.html?figure=${name}&layout=slide`, session.url).href);
    await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      });
      return result.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    });
    assert.deepEqual(violations, [], `${name}, ${scheme}`);
    await context.close();
  }
});
