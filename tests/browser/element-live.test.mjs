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

test('a learner\'s change is written to the attributes and announced with source learner; a host\'s with source host; none on load', async () => {
  // On load the store writes back a value it fixed (tau="500" → 100) and one spelled as its
  // default (query="7"): neither is a change anyone made, and neither attribute is rewritten.
  const { page, context, problems } = await openHost(session, `${SCRIPT}<script>
    window.changes = [];
    document.addEventListener('attention-figure:change', (event) => window.changes.push({ target: event.target.localName, ...event.detail }));
  </script><attention-figure name="temperature" tau="500" query="7"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '100');
  assert.deepEqual(await page.evaluate(() => window.changes), [], 'nothing is announced on load');
  assert.equal(await figure.getAttribute('tau'), '500', 'the author\'s out-of-range value stays as written');
  assert.equal(await figure.getAttribute('query'), '7', 'an attribute spelling the default stays');

  await figure.getByLabel('query token').selectOption('4');
  assert.equal(await figure.getAttribute('query'), '4');
  assert.equal(await figure.getAttribute('tau'), '500', 'only what the learner changed is written');
  await figure.evaluate((element) => element.setAttribute('tau', '2'));
  await eventually(() => page.evaluate(() => window.changes.length), 2);
  // The learner moves query back to its default: the attribute says so, it is not removed.
  await figure.getByLabel('query token').selectOption('7');
  assert.equal(await figure.getAttribute('query'), '7');
  const changes = await page.evaluate(() => window.changes);
  assert.deepEqual(changes, [
    { target: 'attention-figure', name: 'temperature', settings: { query: 4, tau: 100 }, source: 'learner' },
    { target: 'attention-figure', name: 'temperature', settings: { query: 4, tau: 2 }, source: 'host' },
    { target: 'attention-figure', name: 'temperature', settings: { query: 7, tau: 2 }, source: 'learner' },
  ]);
  assert.equal(await figure.getAttribute('tau'), '2', 'the host\'s attribute as it set it');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an author\'s attributes are never removed or rewritten: a default, an invalid value, another spelling', async () => {
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" tau="1" query="abc"></attention-figure>
    <attention-figure name="by-hand" table="no" step="1"></attention-figure>`);
  await elementsReady(page);
  const [temperature, byHand] = [page.locator('attention-figure').nth(0), page.locator('attention-figure').nth(1)];
  assert.deepEqual(await elementNotices(temperature), ['This element asked for query = abc, which is not a number; using 7.']);
  await temperature.getByLabel('temperature τ').focus();
  await page.keyboard.press('ArrowRight');
  const tau = await temperature.getByLabel('temperature τ').getAttribute('aria-valuetext');
  assert.notEqual(tau, '1', 'the slider moved');
  assert.equal(await temperature.getAttribute('tau'), tau, 'the learner\'s value is written');
  assert.equal(await temperature.getAttribute('query'), 'abc', 'the invalid value stays as written');
  assert.deepEqual(await elementNotices(temperature), ['This element asked for query = abc, which is not a number; using 7.'], 'with its note');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await temperature.getAttribute('tau'), '1', 'back at the default: the attribute says 1, it does not vanish');
  await byHand.getByRole('button', { name: 'Next step' }).click();
  assert.equal(await byHand.getAttribute('step'), '2');
  assert.equal(await byHand.getAttribute('table'), 'no', 'another spelling of off stays as written');
  assert.deepEqual(problems, []);
  await context.close();
});

test('notes speak of the element, and each goes once the attribute it is about is fixed', async () => {
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" tua="2" tau="abc" theme="purple"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  const notices = () => elementNotices(figure);
  const visible = () => figure.evaluate((element) => !element.shadowRoot.querySelector('.notices').hidden);
  assert.deepEqual(await notices(), [
    'This element asked for theme = purple, which is not one of auto, light, dark, host; using auto.',
    'This element asked for tau = abc, which is not a number; using 1.',
    'This element names a setting this figure does not have (tua); ignored.',
  ]);
  assert.equal(await figure.getAttribute('tau'), 'abc', 'the attribute stays as the author wrote it');
  // A second bad value replaces the note about the first; a second unknown attribute joins the list.
  await figure.evaluate((element) => { element.setAttribute('qurey', '3'); element.setAttribute('tau', '500'); });
  assert.deepEqual(await eventually(notices, [
    'This element asked for theme = purple, which is not one of auto, light, dark, host; using auto.',
    'This element asked for tau = 500, above the largest allowed value 100; using 100.',
    'This element names settings this figure does not have (tua, qurey); ignored.',
  ]), [
    'This element asked for theme = purple, which is not one of auto, light, dark, host; using auto.',
    'This element asked for tau = 500, above the largest allowed value 100; using 100.',
    'This element names settings this figure does not have (tua, qurey); ignored.',
  ]);
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '100');
  assert.ok((await notices()).every((notice) => !/link/i.test(notice)), 'no notice mentions a link');
  // Fixed one by one, the notes go, and the empty list hides.
  await figure.evaluate((element) => element.setAttribute('tau', '50'));
  assert.equal((await eventually(notices, [])).some((notice) => notice.includes('tau =')), false, 'fixed tau: its note goes');
  await figure.evaluate((element) => element.removeAttribute('tua'));
  assert.equal(await eventually(async () => (await notices()).at(-1), 'This element names a setting this figure does not have (qurey); ignored.'),
    'This element names a setting this figure does not have (qurey); ignored.');
  await figure.evaluate((element) => { element.removeAttribute('qurey'); element.setAttribute('theme', 'dark'); });
  assert.deepEqual(await eventually(notices, []), []);
  assert.equal(await visible(), false, 'the empty notes list is hidden');
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '50');
  assert.deepEqual(problems, []);
  await context.close();
});

test('el.ready gives the figure even when awaited long after attention-figure:ready fired', async () => {
  const { page, context, problems } = await openHost(session, `${SCRIPT}<attention-figure name="map"></attention-figure>`);
  await elementsReady(page);
  // The event has fired and is not replayed: a listener added now hears nothing, el.ready still answers.
  const late = await page.evaluate(async () => {
    const element = document.querySelector('attention-figure');
    let heard = false;
    element.addEventListener('attention-figure:ready', () => { heard = true; });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const figure = await element.ready;
    return { heard, figure: figure?.dataset.figure, inShadow: figure?.getRootNode() === element.shadowRoot };
  });
  assert.deepEqual(late, { heard: false, figure: 'map', inShadow: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a note that settings do not fit goes once they fit, and the one moved returns to what was asked', async () => {
  // h = 12 (its default) does not divide d = 7: h is moved to 7, with a note about h and d.
  const { page, context, problems } = await openHost(session, `${SCRIPT}<attention-figure name="cost" d="7"></attention-figure>`);
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  assert.match((await elementNotices(figure)).join(' | '), /^This element asked for settings that do not fit together: h = 12 does not divide d = 7.*using h = 7/);
  assert.equal((await figure.evaluate((e) => e.settings)).h, 7);
  await figure.evaluate((element) => element.setAttribute('d', '768'));
  assert.deepEqual(await eventually(() => elementNotices(figure), []), [], 'd fixed: the note goes');
  assert.deepEqual(await eventually(() => figure.evaluate((e) => [e.settings.d, e.settings.h]), [768, 12]), [768, 12], 'h is back at the 12 asked for');
  assert.equal(await figure.getAttribute('h'), null, 'no h attribute was written');
  assert.deepEqual(problems, []);
  await context.close();
});
