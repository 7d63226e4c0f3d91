// Long unbroken text a reader types or a link carries must never push the page sideways:
// messages quote only the start of it, and wrap anywhere.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();

const sidewaysScroll = (page) => page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);

test('500 digits in a cost field: a short quote in the message, no sideways scroll at 1280 px', async () => {
  const { page } = await session.openPage();
  const figure = page.locator('#figure-cost');
  await figure.getByLabel('queries n', { exact: true }).fill('9'.repeat(500));
  const error = figure.locator('.field-error:not([hidden])');
  await error.first().waitFor();
  const message = await error.first().innerText();
  assert.ok(message.length < 200, `message of ${message.length} characters: ${message.slice(0, 120)}`);
  assert.match(message, /500 characters/);
  assert.ok((await sidewaysScroll(page)) <= 1, `scrolls sideways by ${await sidewaysScroll(page)} px`);
});

test('a notice quoting 60 unbroken characters wraps on a 375 px phone', async () => {
  const { page } = await session.openPage({ search: `?temperature.tau=${'x'.repeat(60)}&temperature.q${'u'.repeat(60)}=1`, contextOptions: PHONE });
  await page.locator('.notices li').first().waitFor();
  assert.ok((await sidewaysScroll(page)) <= 1, `scrolls sideways by ${await sidewaysScroll(page)} px`);
});
