// The figure toolbar as a reader uses it: "Copy link" and the two embed snippets put the
// right text on the clipboard, the disclosures work from the keyboard alone, the clipboard
// fallback leaves the text selected, and the open panels fit a phone and pass axe.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { PHONE, useBrowser } from './harness.mjs';
import { CLIPBOARD, downloadBy, figureLocator, figureNames, toolbarOf } from './toolbar-helpers.mjs';

const session = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The focused element's name: its aria-label, else its text without aria-hidden parts. */
const focusedName = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (el.hasAttribute('aria-label')) return el.getAttribute('aria-label');
  return [...el.childNodes].filter((node) => node.getAttribute?.('aria-hidden') !== 'true')
    .map((node) => node.textContent).join('').trim();
});

/** Whether a disclosure button says its panel is open, and whether the panel shows. */
async function isOpen(toolbar, name) {
  const button = toolbar.getByRole('button', { name, exact: true });
  const expanded = await button.getAttribute('aria-expanded');
  const panel = toolbar.page().locator(`[id="${await button.getAttribute('aria-controls')}"]`);
  const visible = await panel.isVisible();
  if ((expanded === 'true') !== visible) throw new Error(`${name}: aria-expanded=${expanded} but the panel is ${visible ? 'shown' : 'hidden'}`);
  return visible;
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('every figure that mounted has a toolbar named after its section, with its three tools', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const names = await figureNames(page);
  const all = await page.locator('[data-figure]').count();
  assert.equal(names.length, all, 'each figure has its toolbar');
  for (const name of names) {
    // The heading's text up to its first formula, if it has one.
    const heading = await page.locator(`section:has([data-figure="${name}"]) h2`).evaluate((h2) => {
      let text = '';
      for (const node of h2.childNodes) {
        if (node.nodeName.toLowerCase() === 'math' || node.querySelector?.('math')) break;
        text += node.textContent;
      }
      return text.trim().replace(/\s+/g, ' ');
    });
    const toolbar = toolbarOf(page, name);
    assert.equal(await toolbar.count(), 1, `${name}: one toolbar`);
    const label = await toolbar.getAttribute('aria-label');
    assert.ok(label.startsWith(`Share or export: ${heading}`), `${name}: toolbar named after "${heading}": ${label}`);
    assert.doesNotMatch(label, /[\\\n]/, 'no TeX source or line breaks in the name');
    assert.equal(await toolbar.getByRole('button', { name: 'Copy link' }).count(), 1);
    for (const menu of ['Embed code', 'Export']) {
      const button = toolbar.getByRole('button', { name: menu, exact: true });
      assert.equal(await button.getAttribute('aria-expanded'), 'false', `${name}: ${menu} starts closed`);
      assert.equal(await isOpen(toolbar, menu), false);
    }
  }
  const whyScale = await toolbarOf(page, 'why-scale').getAttribute('aria-label');
  assert.equal(whyScale, 'Share or export: Why divide by \u221adk?', 'a square root in a heading reads as \u221a');
  assert.deepEqual(problems, []);
});

test('Copy link copies a link to this figure with its changed settings, and says so', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const figure = figureLocator(page, 'temperature');
  await figure.getByLabel('temperature \u03c4').focus();
  await page.keyboard.press('End');
  await figure.getByLabel('query token').selectOption('2');
  await figureLocator(page, 'map').getByLabel(/query/).first().selectOption('3'); // another figure's setting
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Copy link' }).click();
  const status = toolbar.getByRole('status');
  await status.filter({ hasText: 'Link copied' }).waitFor();
  assert.equal(await clipboard(page), `${session.url}?temperature.query=2&temperature.tau=100#figure-temperature`);
  assert.ok(await status.isVisible());
  assert.equal(await status.getAttribute('role'), 'status', 'announced politely');

  // The copied link opens the same view.
  const again = await session.openPage({ search: '?temperature.query=2&temperature.tau=100#figure-temperature' });
  const restored = figureLocator(again.page, 'temperature');
  assert.equal(await restored.getByLabel('query token').inputValue(), '2');
  assert.equal(await restored.getByLabel('temperature \u03c4').getAttribute('aria-valuetext'), '100');
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
});

test('Embed code, from the keyboard: both snippets carry the current settings and copy', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=0.5', contextOptions: CLIPBOARD });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Copy link' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(page), 'Embed code', 'Tab reaches the Embed code button');
  await page.keyboard.press('Enter');
  const frame = toolbar.getByLabel('As an iframe, with the script that sizes it');
  const element = toolbar.getByLabel('As an element, with its script');
  await frame.waitFor();
  assert.equal(await frame.getAttribute('readonly'), '');
  const base = session.url; // the page is served at the root, so embedBase is the root too

  const frameCode = await frame.inputValue();
  assert.ok(frameCode.startsWith(`<iframe src="${base}embed.html?figure=temperature&amp;query=7&amp;tau=0.5#picture-temperature" title="Attention Lab: Eight tokens, one knob"`), frameCode);
  assert.match(frameCode, /data-attention-lab="temperature"/);
  assert.match(frameCode, /height="\d+"/);
  // The listener that sizes the frame is a file (it checks the origin), so strict-CSP hosts run it.
  assert.ok(frameCode.endsWith(`<script src="${base}attention-lab-resize.js" defer></script>`), frameCode);
  assert.doesNotMatch(frameCode, /style=|addEventListener/, 'no inline script or style');
  const elementCode = await element.inputValue();
  assert.ok(elementCode.startsWith(`<script src="${base}attention-figure.js"></script>\n<attention-figure name="temperature" query="7" tau="0.5"><img src="${base}pictures/temperature.png" `), elementCode);
  // Where its script cannot run: the figure's picture (lazy: never fetched where it runs) and a link at these settings.
  assert.match(elementCode, /<img [^>]*loading="lazy"><a href="[^"]*\?temperature\.tau=0\.5#figure-temperature">Open the interactive figure at query = 7, tau = 0\.5<\/a><\/attention-figure>$/);

  // The snippets follow the controls while the panel is open.
  await figureLocator(page, 'temperature').getByLabel('query token').selectOption('1');
  assert.match(await element.inputValue(), /query="1" tau="0.5"/);
  assert.match(await frame.inputValue(), /figure=temperature&amp;query=1&amp;tau=0.5/);

  // Tab on to the copy buttons and use them.
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).focus();
  let guard = 0;
  while ((await focusedName(page)) !== 'Copy iframe code' && guard < 10) { await page.keyboard.press('Tab'); guard += 1; }
  assert.equal(await focusedName(page), 'Copy iframe code');
  await page.keyboard.press('Enter');
  await toolbar.getByRole('status').filter({ hasText: 'Iframe code copied.' }).waitFor();
  assert.equal(await clipboard(page), await frame.inputValue());
  await toolbar.getByRole('button', { name: 'Copy element code' }).focus();
  await page.keyboard.press('Space');
  await toolbar.getByRole('status').filter({ hasText: 'Element code copied.' }).waitFor();
  assert.equal(await clipboard(page), await element.inputValue());

  // Escape closes the panel and hands focus back to its button.
  await page.keyboard.press('Escape');
  assert.equal(await frame.isVisible(), false);
  assert.equal(await focusedName(page), 'Embed code');
  assert.deepEqual(problems, []);
});

test('Export, from the keyboard: Enter opens the menu, Tab reaches a format, Enter downloads', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Export', exact: true }).focus();
  await page.keyboard.press('Enter');
  const first = toolbar.getByRole('button', { name: 'Download attention weights, queries by keys as SVG' });
  await first.waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(page), 'Download attention weights, queries by keys as SVG');
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(page), 'Download attention weights, queries by keys as PNG');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.equal(download.suggestedFilename(), 'temperature-attention-weights-queries-by-keys.png');
  assert.ok(await isOpen(toolbar, 'Export'), 'the menu stays open after a download');
  await page.keyboard.press('Escape');
  assert.equal(await first.isVisible(), false);
  assert.equal(await focusedName(page), 'Export');
  // Space opens it too.
  await page.keyboard.press('Space');
  await first.waitFor();
  assert.deepEqual(problems, []);
});

test('one menu at a time; a click elsewhere closes it', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).click();
  assert.ok(await isOpen(toolbar, 'Embed code'));
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  assert.ok(await isOpen(toolbar, 'Export'));
  assert.equal(await isOpen(toolbar, 'Embed code'), false, 'opening Export closed Embed code');
  const { bytes } = await downloadBy(page, toolbar.getByRole('button', { name: /as CSV$/ }).first());
  assert.ok(bytes.length > 0);
  assert.ok(await isOpen(toolbar, 'Export'), 'a download does not close the menu');
  await page.locator('h1').click();
  assert.equal(await isOpen(toolbar, 'Export'), false, 'a click outside closes it');
  assert.deepEqual(problems, []);
});

test('when the clipboard refuses, the link is shown selected with a hint to copy it by hand', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=2' });
  await page.evaluate(() => {
    // A browser that refuses both ways of copying.
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    document.execCommand = () => false;
  });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Copy link' }).click();
  await toolbar.getByRole('status').filter({ hasText: /press Ctrl\+C/ }).waitFor();
  const field = toolbar.getByLabel('Link to this view');
  assert.ok(await field.isVisible());
  assert.equal(await field.inputValue(), `${session.url}?temperature.tau=2#figure-temperature`);
  const selection = await field.evaluate((input) => [document.activeElement === input, input.selectionStart, input.selectionEnd, input.value.length]);
  assert.deepEqual(selection, [true, 0, selection[3], selection[3]], 'focused and fully selected');
  assert.deepEqual(problems, []);
});

test('the open panels fit a 375 px phone', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  for (const menu of ['Embed code', 'Export']) {
    const toolbar = toolbarOf(page, 'temperature');
    await toolbar.getByRole('button', { name: menu, exact: true }).click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `with ${menu} open the page is ${overflow}px too wide`);
    const box = await toolbar.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `toolbar at ${box.x}+${box.width}`);
  }
  assert.deepEqual(problems, []);
});

for (const colorScheme of ['light', 'dark']) {
  test(`no axe violations in the open panels (${colorScheme})`, async () => {
    // axe is injected as an inline script, which the page's CSP would refuse: bypass it here only.
    const { page } = await session.openPage({ contextOptions: { ...CLIPBOARD, colorScheme, bypassCSP: true } });
    await page.addScriptTag({ content: axeSource });
    const toolbar = toolbarOf(page, 'temperature');
    for (const menu of ['Embed code', 'Export']) {
      await toolbar.getByRole('button', { name: menu, exact: true }).click();
      if (menu === 'Export') {
        await toolbar.getByRole('button', { name: /as CSV$/ }).first().click(); // fills the status line too
        await toolbar.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      }
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run('[data-figure="temperature"] .figure-toolbar', {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        });
        return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      });
      assert.deepEqual(violations, [], `${menu} open:\n${violations.join('\n')}`);
    }
  });
}

test('inside the <attention-figure> element (a shadow root) the menus stay open while used', async () => {
  const context = await session.browser.newContext(CLIPBOARD);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => { errors.push(`dialog: ${dialog.message()}`); dialog.dismiss(); });
  // A host page of our own making, served from the same origin by the test.
  const host = new URL('toolbar-host-test.html', session.url).href;
  await page.route(host, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><title>host</title></head><body><h1>A course page</h1>
      <script src="attention-figure.js"></script>
      <attention-figure name="temperature" query="2" tau="0.5"></attention-figure></body></html>`,
  }));
  await page.goto(host);
  await page.waitForFunction(() => document.querySelector('attention-figure')?.dataset.labReady === 'true', null, { timeout: 30000 });
  const toolbar = page.locator('attention-figure').getByRole('group', { name: /^Share or export/ });
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).click();
  const element = toolbar.getByLabel('As an element, with its script');
  await element.click(); // a click inside the panel keeps it open
  assert.ok(await isOpen(toolbar, 'Embed code'));
  assert.match(await element.inputValue(), /<attention-figure name="temperature" query="2" tau="0.5"><img [^>]*><a [^>]*>[^<]*<\/a><\/attention-figure>$/);
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  const { name } = await downloadBy(page, toolbar.getByRole('button', { name: /as SVG$/ }));
  assert.equal(name, 'temperature-attention-weights-queries-by-keys.svg');
  assert.ok(await isOpen(toolbar, 'Export'), 'still open after a download');
  await page.locator('h1').click();
  assert.equal(await isOpen(toolbar, 'Export'), false, 'a click on the host page closes it');
  await toolbar.getByRole('button', { name: 'Copy link' }).click();
  await toolbar.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
  assert.equal(await clipboard(page), `${session.url}index.html?temperature.query=2&temperature.tau=0.5#figure-temperature`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('restyling: custom properties reach the figures, the toolbar, the exports and the element', async () => {
  const theme = ':root { --al-accent: rgb(1, 2, 3); --al-radius: 0px; --al-font: monospace; --al-surface: rgb(250, 240, 230); --al-chart-text-s: 12px; }';
  // An extra stylesheet is an inline <style> here, which the page's CSP refuses: bypass it for this test.
  const { page } = await session.openPage({ contextOptions: { ...CLIPBOARD, bypassCSP: true } });
  await page.addStyleTag({ content: theme });
  const figure = figureLocator(page, 'temperature');
  const styles = await figure.evaluate((el) => ({
    outline: getComputedStyle(el.querySelector('.heatmap-row-highlight')).stroke,
    radius: getComputedStyle(el).borderTopLeftRadius,
    background: getComputedStyle(el).backgroundColor,
    toolbarFont: getComputedStyle(el.querySelector('.figure-tool')).fontFamily,
    cellValueSize: getComputedStyle(el.querySelector('.heatmap-value')).fontSize,
  }));
  assert.deepEqual(styles, {
    outline: 'rgb(1, 2, 3)', radius: '0px', background: 'rgb(250, 240, 230)', toolbarFont: 'monospace', cellValueSize: '12px',
  });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  const svg = (await downloadBy(page, toolbar.getByRole('button', { name: /as SVG$/ }))).bytes.toString('utf8');
  assert.match(svg, /stroke="rgb\(1, 2, 3\)"/, 'the exported picture carries the restyled accent');
  assert.match(svg, /fill="rgb\(250, 240, 230\)"/, 'and the restyled surface as its background');

  // The element: a rule on attention-figure in the host page wins over the shadow root's defaults.
  const context = await session.browser.newContext({ colorScheme: 'dark' });
  const host = await context.newPage();
  const url = new URL('restyle-host-test.html', session.url).href;
  await host.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><title>host</title>
      <style>attention-figure { --al-accent: rgb(4, 5, 6); --al-radius: 0px; }</style></head><body>
      <script src="attention-figure.js"></script><attention-figure name="temperature"></attention-figure></body></html>`,
  }));
  await host.goto(url);
  await host.waitForFunction(() => document.querySelector('attention-figure')?.dataset.labReady === 'true', null, { timeout: 30000 });
  const inside = await host.locator('attention-figure').evaluate((el) => {
    const fig = el.shadowRoot.querySelector('[data-figure]');
    return [getComputedStyle(fig.querySelector('.heatmap-row-highlight')).stroke, getComputedStyle(fig).borderTopLeftRadius];
  });
  assert.deepEqual(inside, ['rgb(4, 5, 6)', '0px'], 'the host page restyles the element, even in the dark scheme');
  await context.close();
});
