// The author page (author.html), as a course author uses it: picks a figure, changes one of its
// settings and how it looks; the six previews (375, 768 and 1280 px, light and dark) must load
// the real embed at those choices, the iframe and element code must carry them, and the LMS
// button must hand over a SCORM 1.2 zip that launches the figure at them. The page must have
// no axe violations at 375 and 1280 px in both schemes, load nothing from another origin and
// log no console error, under the page's CSP; every choice is reached and made from the keyboard;
// and dist/ (hashed names) serves the same page, whose LMS button finds its hashed builder.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, PHONE, WEB_ROOT, useBrowser } from './harness.mjs';

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const session = useBrowser();

/** Opens author.html in a fresh context; problems collects console errors, failures and foreign requests. */
async function openAuthor({ search = '', contextOptions = DESKTOP, base = session.url } = {}) {
  const context = await session.browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${reason}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:') && url !== 'about:blank') {
      problems.push(`request to another origin: ${url}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(new URL(`author.html${search}`, base).href);
  await page.locator('#author-settings').waitFor();
  return { page, context, problems };
}

const previewSources = (page) => page.locator('.author-preview-frame').evaluateAll((frames) => frames.map((f) => f.getAttribute('src') ?? ''));

test('a figure and a setting picked: previews, iframe code, element code and LMS package follow', async () => {
  const { page, context, problems } = await openAuthor({ contextOptions: { ...DESKTOP, acceptDownloads: true } });
  try {
    await page.getByLabel('Figure', { exact: true }).selectOption('temperature');
    // Its settings come from its SETTINGS: query and tau, with their ranges.
    const tau = page.getByLabel('tau', { exact: true });
    assert.equal(await tau.inputValue(), '1');
    assert.match(await page.locator('#author-settings').innerText(), /0\.01 to 100/);
    await tau.fill('2');
    await tau.press('Tab');

    const iframeCode = await page.locator('#author-iframe-code').inputValue();
    const elementCode = await page.locator('#author-element-code').inputValue();
    assert.match(iframeCode, /embed\.html\?figure=temperature&amp;query=7&amp;tau=2/);
    assert.match(elementCode, /<attention-figure name="temperature" query="7" tau="2">/);

    // The previews reload (debounced) at the new setting, each in its theme.
    await page.waitForFunction(() => [...document.querySelectorAll('.author-preview-frame')]
      .every((f) => /[?&]tau=2(&|#|$)/.test(f.getAttribute('src') ?? '')), null, { timeout: 10000 });
    const sources = await previewSources(page);
    assert.equal(sources.length, 6);
    for (const theme of ['light', 'dark']) {
      assert.equal(sources.filter((src) => new URL(src).searchParams.get('theme') === theme).length, 3, `three ${theme} previews`);
    }
    const widths = await page.locator('.author-preview-frame').evaluateAll((frames) => frames.map((f) => f.getAttribute('width')));
    assert.deepEqual([...new Set(widths)], ['375', '768', '1280']);
    // A preview really shows the figure: its embed mounted at tau = 2.
    const frame = page.frameLocator('.author-preview[data-width="375"][data-theme="light"] iframe');
    await frame.locator('html[data-lab-ready="true"]').waitFor({ timeout: 30000 });

    // How it looks: no toolbar, dark; the code and the previews carry it.
    await page.getByLabel('Show the toolbar', { exact: false }).uncheck();
    await page.getByLabel('Theme').selectOption('dark');
    assert.match(await page.locator('#author-iframe-code').inputValue(), /tau=2&amp;theme=dark&amp;toolbar=off/);
    assert.match(await page.locator('#author-element-code').inputValue(), /tau="2" theme="dark" toolbar="off"/);
    await page.waitForFunction(() => [...document.querySelectorAll('.author-preview-frame')]
      .every((f) => /[?&]toolbar=off(&|#|$)/.test(f.getAttribute('src') ?? '')), null, { timeout: 10000 });

    await page.getByRole('button', { name: 'Copy iframe code' }).click();
    await page.locator('#author-status').filter({ hasText: /Iframe code (copied|selected)/ }).waitFor();

    // The LMS package: a SCORM 1.2 zip whose launch page names the figure at these settings.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60000 }),
      page.getByRole('button', { name: /LMS package \(SCORM 1\.2\)/ }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.zip$/);
    const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
    assert.ok(zip['imsmanifest.xml'], 'imsmanifest.xml at the root');
    assert.match(strFromU8(zip['imsmanifest.xml']), /ADL SCORM|1\.2/);
    const launch = Object.entries(zip).filter(([name]) => name.endsWith('.html')).map(([, bytes]) => strFromU8(bytes))
      .find((html) => html.includes('data-launch='));
    assert.ok(launch, 'a launch page');
    assert.match(launch, /data-launch="figure=temperature&amp;query=7&amp;tau=2&amp;theme=dark&amp;toolbar=off/);
    await page.locator('#author-status').filter({ hasText: /Saved .*\.zip/ }).waitFor();

    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a typed number the page cannot read is refused; one out of range is clamped with a note', async () => {
  const { page, context, problems } = await openAuthor({ search: '?figure=temperature' });
  try {
    const tau = page.getByLabel('tau', { exact: true });
    await tau.fill('abc');
    await tau.press('Tab');
    assert.equal(await tau.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#author-iframe-code').inputValue(), /tau=1(&|#|")/);
    await tau.fill('1000');
    await tau.press('Tab');
    assert.equal(await tau.inputValue(), '100');
    assert.match(await page.locator('#author-notices').innerText(), /tau/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('from the keyboard: every choice and button is reached by Tab, and a choice made by keys applies', async () => {
  const { page, context, problems } = await openAuthor({ search: '?figure=heads', contextOptions: PHONE });
  try {
    const reached = [];
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement;
        return el?.labels?.[0]?.textContent.trim() || el?.textContent.trim() || el?.id || '';
      }));
    }
    for (const name of ['Figure', 'Theme', 'Layout', 'Copy iframe code', 'Copy element code', 'Download the LMS package (SCORM 1.2)']) {
      assert.ok(reached.includes(name), `Tab reaches ${name}: ${reached.join(' | ')}`);
    }
    // The slide layout, picked with the keyboard, reaches the code and the previews.
    await page.getByLabel('Layout').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.getElementById('author-iframe-code').value.includes('layout=slide'));
    await page.waitForFunction(() => [...document.querySelectorAll('.author-preview-frame')]
      .every((f) => /[?&]layout=slide(&|#|$)/.test(f.getAttribute('src') ?? '')), null, { timeout: 10000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const [name, view] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
  for (const colorScheme of ['light', 'dark']) {
    test(`no axe violations on the author page: ${name}, ${colorScheme}`, async () => {
      // axe is injected as an inline script, which the CSP would refuse: bypassed here only.
      const { page, context, problems } = await openAuthor({ search: '?figure=cost', contextOptions: { ...view, colorScheme, bypassCSP: true } });
      try {
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          // The embeds in the previews are checked on their own by accessibility.test.mjs.
          const result = await window.axe.run(document, {
            iframes: false,
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
          });
          return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
        });
        assert.deepEqual(violations, [], `axe found:\n  ${violations.join('\n  ')}`);
        // Nothing wider than the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}

test('dist/ ships the author page: its hashed files load, the previews mount, the LMS package builds', async () => {
  const out = await mkdtemp(join(tmpdir(), 'attention-lab-author-dist-'));
  await buildDist({ from: WEB_ROOT, out });
  const server = await startServer({ root: out, port: 0, csp: true });
  const { page, context, problems } = await openAuthor({
    search: '?figure=check-yourself', base: server.url, contextOptions: { ...DESKTOP, acceptDownloads: true },
  });
  try {
    assert.match(await page.locator('#author-settings').innerText(), /no settings/);
    await page.frameLocator('.author-preview[data-width="375"][data-theme="dark"] iframe')
      .locator('html[data-lab-ready="true"]').waitFor({ timeout: 30000 });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60000 }),
      page.getByRole('button', { name: /LMS package \(SCORM 1\.2\)/ }).click(),
    ]);
    const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
    assert.ok(zip['imsmanifest.xml'], 'imsmanifest.xml at the root');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await server.close();
    await rm(out, { recursive: true, force: true });
  }
});
