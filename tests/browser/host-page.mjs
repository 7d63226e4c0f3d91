// A course author's page for the element tests: served by the test itself (page.route) from the
// lab's own origin, so `attention-figure.js` is a relative script. No CSP of ours applies to it.

import { DESKTOP } from './harness.mjs';

/**
 * Opens a host page with `body` (and `head`) in a fresh context; returns { page, context,
 * problems } (console errors and page errors). Close the context when done. `initScript` (a
 * function) runs in the page before any of its scripts.
 */
export async function openHost(session, body, { head = '', contextOptions = DESKTOP, path = 'course-host-test.html', initScript = null } = {}) {
  const context = await session.newContext(contextOptions);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const url = new URL(path, session.url).href;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,">
${head}</head><body>${body}</body></html>`,
  }));
  await page.goto(url);
  return { page, context, problems };
}

/** Waits until every <attention-figure> on the page has mounted (or shown why not). */
export function elementsReady(page) {
  return page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].every((e) => e.dataset.labReady === 'true'),
    null, { timeout: 30000 });
}

/** The notices an element shows (list items of its shadow root's notice box). */
export function elementNotices(locator) {
  return locator.evaluate((element) => [...element.shadowRoot.querySelectorAll('.notices li')].map((li) => li.textContent));
}

/** Waits until read() (an async function) returns `expected`; returns the last value read. */
export async function eventually(read, expected, { timeout = 5000 } = {}) {
  const until = Date.now() + timeout;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
