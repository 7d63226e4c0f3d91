// When the WebAssembly core cannot start (its file missing, damaged, or blocked), a reader gets one plain
// sentence per figure, announced once, with a way to try again, never the loader's own text
// ("Aborted(…) Build with -s ASSERTIONS=1") and never an uncaught promise rejection.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { DESKTOP, WEB_ROOT, renderAllFigures, useBrowser } from './harness.mjs';

const session = useBrowser();

async function openWithoutWasm(path) {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(new URL(path, session.url).href);
  await page.locator('.figure-status-error').first().waitFor({ state: 'attached', timeout: 20000 });
  await renderAllFigures(page); // the sentences are read wherever their figures are
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

/** Opens `path` with every .wasm answered by `body` (status 200, as a damaged file would come). */
async function openWithWasm(path, body) {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body }));
  await page.goto(new URL(path, session.url).href);
  await page.locator('.figure-status-error').first().waitFor({ state: 'attached', timeout: 20000 });
  await renderAllFigures(page); // the sentences are read wherever their figures are
  await page.waitForTimeout(300);
  return { context, page, pageErrors };
}

test('a damaged or cut-short .wasm is said to be damaged, not blamed on the security settings', async () => {
  const real = await readFile(join(WEB_ROOT, 'attention_lab_web.wasm'));
  const cases = [
    ['not WebAssembly at all (no magic number)', Buffer.from('<!doctype html><p>a proxy\u2019s error page</p>')],
    ['cut short (truncated)', real.subarray(0, Math.floor(real.length / 3))],
    ['corrupt inside', Buffer.concat([real.subarray(0, 8), Buffer.alloc(64, 0xff), real.subarray(72)])],
  ];
  for (const [what, body] of cases) {
    for (const path of ['', 'embed.html?figure=temperature']) {
      const { context, page, pageErrors } = await openWithWasm(path, body);
      const text = await page.locator('.figure-status-error').first().innerText();
      assert.match(text, /could not start: its WebAssembly file is damaged or incomplete\./, `${what}, /${path}`);
      assert.doesNotMatch(text, /security/, `${what}, /${path}`);
      assert.deepEqual(pageErrors, [], `${what}, /${path}`);
      await context.close();
    }
  }
});

test('a policy that refuses WebAssembly is still named as the page\u2019s security settings', async () => {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  // The page's own policy, less 'wasm-unsafe-eval': the browser refuses to compile the core.
  await page.route((url) => url.pathname === '/' || url.pathname.endsWith('.html'), async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers(), 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'" };
    await route.fulfill({ response, headers });
  });
  await page.goto(session.url);
  await page.locator('.figure-status-error').first().waitFor({ state: 'attached', timeout: 20000 });
  await renderAllFigures(page); // the sentences are read wherever their figures are
  assert.match(await page.locator('.figure-status-error').first().innerText(),
    /could not start: this page\u2019s security settings do not allow WebAssembly\./);
  await context.close();
});
