// When the WebAssembly core cannot start (its file missing, or blocked), a reader gets one plain
// sentence per figure, announced once, with a way to try again, never the loader's own text
// ("Aborted(…) Build with -s ASSERTIONS=1") and never an uncaught promise rejection.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, useBrowser } from './harness.mjs';

const session = useBrowser();

async function openWithoutWasm(path) {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(new URL(path, session.url).href);
  await page.locator('.figure-status-error').first().waitFor({ timeout: 20000 });
  await page.waitForTimeout(300); // let every figure reach its own failure
  return { context, page, pageErrors };
}

test('the page: one plain sentence per figure, one alert, a retry, no loader text', async () => {
  const { context, page, pageErrors } = await openWithoutWasm('');
  const failures = page.locator('.figure-status-error');
  const figures = await page.locator('[data-figure]').count();
  assert.equal(await failures.count(), figures, 'every figure says it could not start');
  assert.match(await failures.first().innerText(), /^The interactive part could not start: its WebAssembly file could not be loaded\./);
  const text = await page.locator('body').innerText();
  assert.doesNotMatch(text, /Aborted|ASSERTIONS|both async and sync/);
  assert.equal(await page.locator('[role="alert"]').count(), 1, 'announced once, not once per figure');
  assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), figures);
  assert.deepEqual(pageErrors, [], 'no uncaught error or rejection');
  await context.close();
});

test('the embed: the same sentence, a retry and a link to the full page', async () => {
  const { context, page, pageErrors } = await openWithoutWasm('embed.html?figure=temperature&tau=0.5');
  const failure = page.locator('.figure-status-error');
  assert.equal(await failure.count(), 1);
  assert.match(await failure.innerText(), /could not start: its WebAssembly file could not be loaded/);
  assert.equal(await failure.getByRole('button', { name: 'Try again' }).count(), 1);
  const link = failure.getByRole('link', { name: 'Open the full page' });
  assert.match(await link.getAttribute('href'), /index\.html/);
  assert.deepEqual(pageErrors, []);
  await context.close();
});
