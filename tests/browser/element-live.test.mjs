// The <attention-figure> element is live, as a framework (or a course author's script) expects:
// attributes set after it started change the figure, a late `name` mounts it, a learner's
// change comes back as attributes and an event, and its notices speak of the element.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness.mjs';
import { elementNotices, elementsReady, eventually, openHost } from './host-page.mjs';

const session = useBrowser();
const SCRIPT = '<script src="attention-figure.js"></script>';

test('setAttribute changes the figure; removing the attribute returns to the default', async () => {
  const { page, context, problems } = await openHost(session, `${SCRIPT}<attention-figure name="temperature" tau="0.3"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  const tau = figure.getByLabel('temperature τ');
  assert.equal(await tau.getAttribute('aria-valuetext'), '0.3');
  await figure.evaluate((element) => element.setAttribute('tau', '2'));
  assert.equal(await eventually(() => tau.getAttribute('aria-valuetext'), '2'), '2');
  assert.equal(await figure.getAttribute('tau'), '2');
  await figure.evaluate((element) => element.setAttribute('query', '3'));
  assert.equal(await eventually(() => figure.getByLabel('query token').inputValue(), '3'), '3');
  await figure.evaluate((element) => element.removeAttribute('tau'));
  assert.equal(await eventually(() => tau.getAttribute('aria-valuetext'), '1'), '1');
  assert.deepEqual(await figure.evaluate((element) => element.settings), { query: 3, tau: 1 });
  // The settings property sets attributes, which set the figure.
  await figure.evaluate((element) => { element.settings = { tau: 0.5 }; });
  assert.equal(await eventually(() => tau.getAttribute('aria-valuetext'), '0.5'), '0.5');
  assert.equal(await figure.getAttribute('tau'), '0.5');
  assert.deepEqual(await elementNotices(figure), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an element inserted before its name is set (as frameworks do) mounts once it is; a new name mounts that figure', async () => {
  const { page, context, problems } = await openHost(session, `${SCRIPT}<main id="app"></main>`);
  await page.evaluate(() => new Promise((resolve) => {
    const element = document.createElement('attention-figure');
    document.getElementById('app').append(element);
    // A later task, as a framework's render would set it.
    setTimeout(() => {
      element.setAttribute('tau', '0.5');
      element.setAttribute('name', 'temperature');
      resolve();
    }, 200);
  }));
  const figure = page.locator('attention-figure');
  await figure.getByLabel('temperature τ').waitFor();
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
  assert.equal(await figure.locator('.figure-status-error').count(), 0, 'no lingering "no figure called" error');
  assert.equal(await figure.evaluate((e) => e.shadowRoot.querySelectorAll('[data-figure]').length), 1);

  // The ready promise and event, then a different figure under the same element.
  const ready = figure.evaluate((element) => new Promise((resolve) => {
    element.addEventListener('attention-figure:ready', (event) => resolve(event.detail), { once: true });
  }));
  await figure.evaluate((element) => { element.name = 'heads'; });
  assert.deepEqual(await ready, { name: 'heads', found: true });
  assert.equal(await figure.evaluate(async (element) => (await element.ready)?.dataset.figure), 'heads');
  assert.equal(await figure.evaluate((e) => e.shadowRoot.querySelectorAll('[data-figure]').length), 1, 'the old figure is gone');
  assert.equal(await figure.getByLabel('temperature τ').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a learner\'s change is written to the attributes and announced by attention-figure:change', async () => {
  const { page, context, problems } = await openHost(session, `${SCRIPT}<attention-figure name="temperature"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  await figure.evaluate((element) => {
    window.changes = [];
    document.addEventListener('attention-figure:change', (event) => window.changes.push({ target: event.target.localName, ...event.detail }));
  });
  await figure.getByLabel('query token').selectOption('4');
  assert.equal(await figure.getAttribute('query'), '4');
  const changes = await page.evaluate(() => window.changes);
  assert.deepEqual(changes, [{ target: 'attention-figure', name: 'temperature', settings: { query: 4, tau: 1 } }]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('unknown and bad attributes get a notice that speaks of the element, at the start and later', async () => {
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" tua="2" tau="abc"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  let notices = await elementNotices(figure);
  assert.deepEqual(notices, [
    'This element asked for tau = abc, which is not a number; using 1.',
    'This element names a setting this figure does not have (tua); ignored.',
  ]);
  await figure.evaluate((element) => { element.setAttribute('qurey', '3'); element.setAttribute('tau', '500'); });
  await page.waitForFunction(() => document.querySelector('attention-figure').shadowRoot.querySelectorAll('.notices li').length === 4);
  notices = await elementNotices(figure);
  assert.equal(notices[2], 'This element asked for tau = 500, above the largest allowed value 100; using 100.');
  assert.equal(notices[3], 'This element names a setting this figure does not have (qurey); ignored.');
  assert.ok(notices.every((notice) => !/link/i.test(notice)), 'no notice mentions a link');
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '100');
  assert.deepEqual(problems, []);
  await context.close();
});
