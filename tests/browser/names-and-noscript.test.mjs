// Two readers the figures themselves cannot reach: one whose screen reader announces names
// (MathML drops out of accessible names in Chromium, so a name that holds a formula must say
// it in text too), and one with JavaScript turned off (the embed must say why it is empty and
// link to the full page).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, useBrowser } from './harness.mjs';

const session = useBrowser();

/** The accessible name Chromium computes, from the first line of the element's ARIA snapshot. */
async function accessibleName(locator) {
  const snapshot = await locator.ariaSnapshot();
  const match = /^- [\w-]+ "((?:[^"\\]|\\.)*)"/.exec(snapshot);
  return match ? JSON.parse(`"${match[1]}"`) : '';
}

test('the contents link and the heading "Why divide by √dₖ?" keep the formula in their names', async () => {
  const { page } = await session.openPage();
  const name = 'Why divide by √dₖ?';
  const link = page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name, exact: true });
  assert.equal(await link.count(), 1);
  assert.equal(await link.getAttribute('href'), '#why-scale');
  assert.equal(await page.getByRole('heading', { name, exact: true, level: 2 }).count(), 1);
  // The section is named by its heading, so it carries the same name.
  assert.equal(await page.getByRole('region', { name, exact: true }).count(), 1);
});

test('no heading or link anywhere on the page loses a formula from its name', async () => {
  const { page } = await session.openPage();
  const holders = page.locator('h1, h2, h3, h4, h5, h6, a[href]').filter({ has: page.locator('math') });
  const count = await holders.count();
  assert.ok(count >= 2, `${count} headings and links hold a formula`);
  for (let i = 0; i < count; i += 1) {
    const holder = holders.nth(i);
    // The element's text without its formulas: the name must say more than that.
    const withoutMath = await holder.evaluate((el) => {
      const copy = el.cloneNode(true);
      for (const math of copy.querySelectorAll('math')) math.remove();
      return copy.textContent.replace(/\s+/g, ' ').trim();
    });
    const name = (await accessibleName(holder)).replace(/\s+/g, ' ').trim();
    assert.notEqual(name, withoutMath, `"${name}" lost its formula`);
    assert.ok(name.length > withoutMath.length, `"${name}" against "${withoutMath}"`);
  }
});

test('with JavaScript off, the embed says why it is empty and links to the full page', async () => {
  const context = await session.browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${session.url}embed.html?figure=temperature&tau=0.5`);
  const note = page.locator('#embed-root').getByText(/scripting is turned off/);
  assert.ok(await note.isVisible(), 'the note is shown');
  assert.ok((await page.locator('body').innerText()).trim().length > 60, 'the frame is not blank');
  const link = page.getByRole('link', { name: 'open the full page of Attention Lab' });
  assert.equal(await link.count(), 1);
  const href = await link.evaluate((a) => a.href);
  assert.equal(href, `${session.url}index.html`);
  const response = await page.request.get(href);
  assert.equal(response.status(), 200);
  // The full page has its own note for this reader.
  await page.goto(href);
  assert.ok(await page.getByText(/with scripting turned off only the text is shown/).isVisible());
  assert.equal(await page.getByRole('heading', { name: 'Why divide by √dₖ?', exact: true }).count(), 1);
  await context.close();
});
