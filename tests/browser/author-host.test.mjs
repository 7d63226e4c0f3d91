// A course author's host pages: every figure's element on one page under axe (the roles
// figure's setting is `kind`, since role="cross" is an ARIA role), the old `role` key still
// read, links that point where the full page lives (`page`), a layout chosen by the element's
// own width, presentation options (toolbar, notes, padding) and the one-file download.

import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';
import { elementNotices, elementsReady, openHost } from './host-page.mjs';
import { CLIPBOARD, downloadBy, figureNames } from './toolbar-helpers.mjs';

const session = useBrowser();
const SCRIPT = '<script src="attention-figure.js"></script>';
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let scratch = null;

before(async () => { scratch = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), 'attention-lab-author-')); });
after(async () => { if (scratch) await rm(scratch, { recursive: true, force: true }); });

const toolbarIn = (element) => element.getByRole('group', { name: /^Share or export/ });

test('a host page with every figure\'s element, as the page\'s Embed code writes them, has no axe violations', async () => {
  // The element snippets the page hands out for each figure at a non-default setting.
  const opened = await session.openPage({ search: '?roles.role=cross&heads.k=2', contextOptions: CLIPBOARD });
  const FIGURES = await figureNames(opened.page);
  assert.ok(FIGURES.length >= 11, FIGURES.join(', '));
  const snippets = [];
  for (const name of FIGURES) {
    const figure = opened.page.locator(`[data-figure="${name}"]`);
    await toolbarIn(figure).getByRole('button', { name: 'Embed code', exact: true }).click();
    snippets.push((await figure.getByLabel('As an element, with its script').inputValue()).split('\n')[1]);
  }
  // No figure's setting may be named like a presentation key (theme, page, toolbar, notes, padding, layout).
  const settingNames = await opened.page.evaluate((names) => names.flatMap((name) => window.attentionLab.keys(name)
    .map((key) => key.slice(name.length + 1))), FIGURES);
  assert.deepEqual(settingNames.filter((n) => ['theme', 'page', 'toolbar', 'notes', 'padding', 'layout'].includes(n)), []);
  const roles = snippets.find((s) => s.includes('name="roles"'));
  assert.equal(roles.slice(0, roles.indexOf('>') + 1), '<attention-figure name="roles" kind="cross" head="1-0">', 'the old link key is read, the new one written');
  assert.ok(snippets.every((s) => !/\srole=/.test(s)));
  for (const scheme of ['light', 'dark']) {
    const { page, context, problems } = await openHost(session,
      `<main><h1>Week 3: attention</h1>${SCRIPT}\n${snippets.map((s) => `<section><h2>Figure</h2>${s}</section>`).join('\n')}</main>`,
      { contextOptions: { ...DESKTOP, colorScheme: scheme } });
    await elementsReady(page);
    assert.equal(await page.locator('attention-figure').count(), FIGURES.length);
    for (const element of await page.locator('attention-figure').all()) {
      assert.equal(await element.evaluate((e) => e.shadowRoot.querySelectorAll('.figure-status-error, .figure-error:not([hidden])').length), 0);
    }
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      });
      return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
    });
    assert.deepEqual(violations, [], `${scheme}: axe found:\n  ${violations.join('\n  ')}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the old role key still works in links and embeds (read, never written); an old role attribute gets a notice', async () => {
  const { page, problems } = await session.openPage({ search: '?roles.role=decoder' });
  const figure = page.locator('[data-figure="roles"]');
  assert.equal(await figure.getByRole('radio', { name: /^decoder self-attention/ }).isChecked(), true);
  await figure.getByRole('radio', { name: /^encoder–decoder attention/ }).check();
  await page.waitForFunction(() => location.search.includes('roles.kind=cross'));
  assert.doesNotMatch(await page.evaluate(() => location.search), /roles\.role/);
  assert.deepEqual(problems, []);

  const embed = await session.openPage({ search: 'embed.html?figure=roles&role=cross' });
  assert.equal(await embed.page.getByRole('radio', { name: /^encoder–decoder attention/ }).isChecked(), true);
  assert.equal(await embed.page.locator('#notices li').count(), 0, 'no notice for the old key');

  const host = await openHost(session, `${SCRIPT}<attention-figure name="roles" role="cross"></attention-figure>`);
  await elementsReady(host.page);
  const element = host.page.locator('attention-figure');
  assert.equal(await element.getByRole('radio', { name: /^encoder–decoder attention/ }).isChecked(), true);
  assert.match((await elementNotices(element)).join('\n'), /write kind="cross" instead/);
  await host.context.close();
});

test('page="…" is where every link the element makes points; without it a self-hosted copy on file:// hands out no broken links', async () => {
  const lab = 'https://example.org/attention-lab/index.html';
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" tau="0.5" page="${lab}"></attention-figure>`, { contextOptions: CLIPBOARD });
  await elementsReady(page);
  const toolbar = toolbarIn(page.locator('attention-figure'));
  await toolbar.getByRole('button', { name: 'Copy link' }).click();
  await toolbar.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${lab}?temperature.tau=0.5#figure-temperature`);
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).click();
  const iframe = await toolbar.getByLabel('As an iframe, with the script that sizes it').inputValue();
  const element = await toolbar.getByLabel('As an element, with its script').inputValue();
  assert.match(iframe, /src="https:\/\/example\.org\/attention-lab\/embed\.html\?figure=temperature&amp;query=7&amp;tau=0\.5#picture-temperature"/);
  assert.match(element, /^<script src="https:\/\/example\.org\/attention-lab\/attention-figure\.js"><\/script>/);
  assert.doesNotMatch(`${iframe}${element}`, /127\.0\.0\.1/, 'nothing points at the host that served the script');
  assert.deepEqual(problems, []);
  await context.close();

  // The script tag's data-page names it once for every element on the page.
  const tagged = await openHost(session,
    `<script src="attention-figure.js" data-page="https://example.org/lab/"></script><attention-figure name="heads"></attention-figure>`, { contextOptions: CLIPBOARD });
  await elementsReady(tagged.page);
  assert.equal(await tagged.page.locator('attention-figure').evaluate((e) => e.page), 'https://example.org/lab/');
  const taggedBar = toolbarIn(tagged.page.locator('attention-figure'));
  await taggedBar.getByRole('button', { name: 'Copy link' }).click();
  await taggedBar.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
  assert.equal(await tagged.page.evaluate(() => navigator.clipboard.readText()), 'https://example.org/lab/#figure-heads');
  await tagged.context.close();

  // A copy of the script next to a lesson opened from file://, naming no page.
  await copyFile(join(WEB_ROOT, 'attention-figure.js'), join(scratch, 'attention-figure.js'));
  await writeFile(join(scratch, 'lesson.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title>
<link rel="icon" href="data:,"><script src="attention-figure.js"></script></head><body><attention-figure name="temperature"></attention-figure></body></html>`);
  const offline = await session.browser.newContext(CLIPBOARD);
  const local = await offline.newPage();
  await local.goto(pathToFileURL(join(scratch, 'lesson.html')).href);
  await elementsReady(local);
  const localBar = toolbarIn(local.locator('attention-figure'));
  await localBar.getByRole('button', { name: 'Copy link' }).click();
  assert.match(await localBar.getByRole('status').innerText(), /does not know where the full page lives.*page attribute/);
  await localBar.getByRole('button', { name: 'Embed code', exact: true }).click();
  assert.equal(await localBar.getByLabel('As an iframe, with the script that sizes it').isVisible(), false);
  assert.doesNotMatch(await localBar.innerText(), /file:/);
  await offline.close();

  // The embed takes the same key.
  const embed = await session.openPage({ search: `embed.html?figure=temperature&page=${encodeURIComponent(lab)}`, contextOptions: CLIPBOARD });
  await embed.page.getByRole('button', { name: 'Copy link' }).click();
  await embed.page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
  assert.equal(await embed.page.evaluate(() => navigator.clipboard.readText()), `${lab}#figure-temperature`);
  assert.deepEqual(embed.problems, []);
});

test('in a 400 px sidebar on a wide screen, a figure takes the layout it has on a narrow screen', async () => {
  const { page, context, problems } = await openHost(session, `${SCRIPT}
<div style="display: flex; gap: 24px"><article style="flex: 1"><attention-figure name="heads" id="wide"></attention-figure></article>
<aside style="width: 400px; flex: none"><attention-figure name="heads" id="side"></attention-figure></aside></div>`,
  { contextOptions: { viewport: { width: 1600, height: 900 } } });
  await elementsReady(page);
  const columns = (id) => page.locator(`#${id}`).evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.figure-panels')).gridTemplateColumns.split(' ').length);
  assert.equal(await columns('wide'), 2, 'wide: two panels side by side');
  assert.equal(await columns('side'), 1, 'the sidebar: one column, as at 375 px');
  const overflow = await page.locator('#side').evaluate((e) => e.shadowRoot.querySelector('figure').scrollWidth - e.getBoundingClientRect().width);
  assert.ok(overflow <= 1, `nothing sticks out of the sidebar (${overflow}px)`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('toolbar, notes and padding can be hidden, as attributes and as embed keys', async () => {
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" toolbar="off" notes="off" padding="off"></attention-figure><attention-figure name="temperature"></attention-figure>`);
  await elementsReady(page);
  const [bare, full] = await page.locator('attention-figure').all();
  assert.equal(await bare.locator('.figure-toolbar').count(), 1, 'made, but hidden');
  assert.equal(await bare.locator('.figure-toolbar').isVisible(), false, 'no toolbar');
  assert.equal(await toolbarIn(full).isVisible(), true);
  assert.equal(await bare.locator('figcaption').isVisible(), false, 'no caption');
  const box = (locator) => locator.evaluate((e) => {
    const style = getComputedStyle(e.shadowRoot.querySelector('figure'));
    return [style.paddingTop, style.borderTopWidth, style.marginTop].join(' ');
  });
  assert.equal(await box(bare), '0px 0px 0px');
  assert.notEqual(await box(full), '0px 0px 0px');
  await bare.evaluate((e) => e.setAttribute('toolbar', 'on'));
  await toolbarIn(bare).waitFor({ state: 'visible' });
  assert.deepEqual(problems, []);
  await context.close();

  const embed = await session.openPage({ search: 'embed.html?figure=temperature&toolbar=off&notes=off&padding=off&tau=2' });
  assert.equal(await embed.page.getByRole('group', { name: /^Share or export/ }).isVisible(), false);
  assert.equal(await embed.page.locator('figcaption').isVisible(), false);
  assert.equal(await embed.page.getByLabel('temperature τ').getAttribute('aria-valuetext'), '2');
  assert.equal(await embed.page.locator('#notices li').count(), 0, 'the keys are not figure settings');
  assert.deepEqual(embed.problems, []);
});

test('"Download as HTML" saves one self-contained file that opens from file:// at the current setting', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=0.5&temperature.query=2', contextOptions: CLIPBOARD });
  const toolbar = toolbarIn(page.locator('[data-figure="temperature"]'));
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  const { name, bytes } = await downloadBy(page, toolbar.getByRole('button', { name: 'Download the whole figure as HTML' }));
  assert.equal(name, 'attention-lab-temperature-query-2-tau-0-5.html');
  const html = bytes.toString('utf8');
  assert.ok(bytes.length > 300_000, `the core is inside (${bytes.length} bytes)`);
  const element = html.slice(html.lastIndexOf('<attention-figure '), html.indexOf('>', html.lastIndexOf('<attention-figure ')) + 1);
  assert.match(element, /^<attention-figure name="temperature" page="http:\/\/127\.0\.0\.1:\d+\/(index\.html)?" query="2" tau="0.5">$/);
  assert.deepEqual(problems, []);

  const file = join(scratch, name);
  await writeFile(file, bytes);
  const context = await session.browser.newContext(CLIPBOARD);
  const offline = await context.newPage();
  const errors = [];
  offline.on('pageerror', (error) => errors.push(error.message));
  offline.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  offline.on('request', (request) => { if (!/^(file|data|blob):/.test(request.url())) errors.push(`request: ${request.url()}`); });
  await offline.goto(pathToFileURL(file).href);
  await elementsReady(offline);
  assert.deepEqual(await offline.evaluate(() => [...document.scripts].map((script) => script.src)), [''], 'one inline script, nothing to fetch');
  const figure = offline.locator('attention-figure');
  assert.equal(await figure.getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
  assert.equal(await figure.getByLabel('query token').inputValue(), '2');
  assert.ok(Number(await figure.getByLabel('largest weight').innerText()) > 0);
  // The copy can download itself again (its script is inline, so it reads its own text).
  const again = toolbarIn(figure);
  await again.getByRole('button', { name: 'Export', exact: true }).click();
  const second = await downloadBy(offline, again.getByRole('button', { name: 'Download the whole figure as HTML' }));
  assert.ok(second.bytes.length > 300_000);
  assert.deepEqual(errors, []);
  await context.close();
});
