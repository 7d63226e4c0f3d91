// A course author's view: copy the embed code from the page, paste it into a page on another
// origin, and the figure shows up there at the chosen setting. Also the embed page on its own,
// bad embed links, and the single-file element opened from file://.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';

const session = useBrowser();
let hostDir = null;
let host = null;

before(async () => {
  hostDir = await mkdtemp(join(tmpdir(), 'attention-lab-host-'));
  // Another origin: another loopback address and port, no CSP of ours.
  host = await startServer({ root: hostDir, port: 0, host: '127.0.0.2' });
});

after(async () => {
  await host?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  return problems;
}

/** The iframe and element snippets the page offers for the temperature figure at τ = 0.5. */
async function copiedSnippets() {
  const { page } = await session.openPage({ search: '?temperature.query=2&temperature.tau=0.5' });
  const figure = page.locator('#figure-temperature');
  await figure.getByRole('button', { name: 'Embed code', exact: true }).click();
  const iframe = await figure.getByLabel('As an iframe, with the script that sizes it').inputValue();
  const element = await figure.getByLabel('As an element, with its script').inputValue();
  return { iframe, element };
}

test('the copied iframe code works on another origin and sizes itself', async () => {
  const { iframe } = await copiedSnippets();
  assert.match(iframe, /embed\.html\?figure=temperature&amp;query=2&amp;tau=0\.5|embed\.html\?figure=temperature&query=2&tau=0\.5/);
  await writeFile(join(hostDir, 'iframe.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course page</title></head>
<body><h1>Week 3: attention</h1><p>Try the knob below.</p>\n${iframe}\n<p>After the figure.</p></body></html>`);

  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${host.url}iframe.html`);
  const frame = page.frameLocator('iframe[data-attention-lab]');
  const tau = frame.getByLabel('temperature τ');
  await tau.waitFor();
  assert.equal(await tau.getAttribute('aria-valuetext'), '0.5');
  assert.equal(await frame.getByLabel('query token').inputValue(), '2');
  // The frame reported its height and the host snippet applied it: no inner scroll bar.
  await page.waitForFunction(() => {
    const f = document.querySelector('iframe[data-attention-lab]');
    const inner = f.contentDocument; // cross-origin: null, so compare with the frame's own report
    return inner === null && f.style.height !== '';
  });
  const frameHeight = await page.locator('iframe[data-attention-lab]').evaluate((f) => f.getBoundingClientRect().height);
  const contentHeight = await frame.locator('html').evaluate((html) => html.getBoundingClientRect().height);
  assert.ok(Math.abs(frameHeight - Math.ceil(contentHeight)) <= 2, `frame ${frameHeight}px, content ${contentHeight}px`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the copied element code works on another origin, in its own shadow root', async () => {
  const { element } = await copiedSnippets();
  // Its content (the figure's picture and a link) shows only where the script cannot run.
  assert.match(element, /<attention-figure name="temperature" query="2" tau="0.5"><img [^>]*loading="lazy"><a [^>]*>[^<]*<\/a><\/attention-figure>$/);
  await writeFile(join(hostDir, 'element.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A course page</title>
<link rel="stylesheet" href="host.css"></head>
<body><h1>Week 3: attention</h1>\n${element}\n<attention-figure name="heads" k="2"></attention-figure></body></html>`);
  // The host restyles the figure through the documented custom properties.
  await writeFile(join(hostDir, 'host.css'), 'attention-figure { --al-accent: rgb(200, 0, 100); }\n');

  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${host.url}element.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].every((e) => e.dataset.labReady === 'true'));
  const temperature = page.locator('attention-figure[name="temperature"]');
  assert.equal(await temperature.getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
  assert.equal(await temperature.getByLabel('query token').inputValue(), '2');
  // h = 2^2 = 4: four head thumbnails, the picked one drawn beside the full-width head.
  const heads = page.locator('attention-figure[name="heads"]');
  assert.equal(await heads.getByRole('grid').count(), 2);
  assert.equal(await heads.getByRole('button', { name: /^head \d, columns/ }).count(), 4);
  // Changing a control is reflected back into the element's attributes.
  await temperature.getByLabel('query token').selectOption('7');
  assert.equal(await temperature.getAttribute('query'), '7', 'back at its default, the attribute says so: the author\'s attribute is never removed');
  await temperature.getByLabel('query token').selectOption('4');
  assert.equal(await temperature.getAttribute('query'), '4');
  // The host's custom property reaches inside the shadow root.
  const accent = await temperature.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('figure')).getPropertyValue('--al-accent').trim());
  assert.equal(accent, 'rgb(200, 0, 100)');
  // The page's own styles do not leak out to the host.
  const hostHeading = await page.locator('h1').evaluate((h) => getComputedStyle(h).fontFamily);
  assert.doesNotMatch(hostHeading, /system-ui|Inter|Source/i);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the single-file element also works from file://', async () => {
  const file = join(hostDir, 'offline-lesson.html');
  await writeFile(file,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Offline</title>
<script src="${pathToFileURL(join(WEB_ROOT, 'attention-figure.js')).href}"></script></head>
<body><attention-figure name="temperature" tau="0.01"></attention-figure></body></html>`);
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => document.querySelector('attention-figure')?.dataset.labReady === 'true');
  const figure = page.locator('attention-figure');
  assert.match(await figure.getByLabel('on key').innerText(), /cat/);
  assert.ok(Number(await figure.getByLabel('largest weight').innerText()) > 0.99);
  assert.deepEqual(problems, []);
  await context.close();
});

test('embed.html shows one figure, keeps its settings in its URL, and reports bad links', async () => {
  const { page, problems } = await session.openPage({ search: 'embed.html?figure=temperature&tau=2' });
  assert.equal(await page.locator('figure').count(), 1);
  assert.equal(await page.getByLabel('temperature τ').getAttribute('aria-valuetext'), '2');
  await page.getByLabel('query token').selectOption('3');
  await page.waitForFunction(() => location.search.includes('query=3'));
  assert.match(await page.evaluate(() => location.search), /^\?figure=temperature&(tau=2&query=3|query=3&tau=2)$/);
  assert.deepEqual(problems, []);

  const bad = await session.openPage({ search: 'embed.html?figure=temperature&tau=NaN&query=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E' });
  let dialogs = 0;
  bad.page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  assert.equal(await bad.page.getByLabel('temperature τ').getAttribute('aria-valuetext'), '1');
  assert.equal(await bad.page.getByLabel('query token').inputValue(), '7');
  const notices = await bad.page.getByRole('status', { name: 'Notes about the link' }).innerText();
  assert.match(notices, /tau = NaN/);
  assert.match(notices, /<img src=x onerror=alert\(1\)>/, 'the markup is shown as text');
  assert.equal(await bad.page.locator('img[src="x"]').count(), 0);
  assert.equal(dialogs, 0);

  const extra = await session.openPage({ search: 'embed.html?figure=temperature&taux=3' });
  assert.match(await extra.page.getByRole('status', { name: 'Notes about the link' }).innerText(), /does not have \(taux\)/);

  const unknown = await session.openPage({ search: 'embed.html?figure=nonsense' });
  assert.match(await unknown.page.getByRole('alert').innerText(), /no figure called “nonsense”.*temperature/);
});

test('every figure of the page can be embedded on its own', async () => {
  const { page } = await session.openPage();
  const names = await page.locator('[data-figure]').evaluateAll((els) => els.map((e) => e.dataset.figure));
  assert.ok(names.length >= 10, `found ${names.length} figures`);
  for (const name of names) {
    const embed = await session.openPage({ search: `embed.html?figure=${name}` });
    assert.equal(await embed.page.locator(`figure[data-figure="${name}"]`).count(), 1, name);
    assert.equal(await embed.page.locator('.figure-error:visible, .figure-status-error:visible').count(), 0, `${name} drew without errors`);
    assert.deepEqual(embed.problems, [], name);
    await embed.context.close();
  }
});
