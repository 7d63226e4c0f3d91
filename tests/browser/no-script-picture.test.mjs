// Where scripts cannot run, a copy of a figure shows a picture of it, with a caption:
// - the one-file HTML export, opened with JavaScript off, inside a sandbox="" frame (a
//   no-script viewer), and under an upload area's policy that refuses its inline script: the
//   figure's own charts as the core drew them at its settings when it was exported, the
//   settings as caption, and a link to the page the author named, at the same settings. With
//   scripts, the live figure shows instead and the picture stays hidden.
// - the iframe embed (embed.html), with JavaScript off and in a sandbox="" frame: the picture
//   dist.sh made of the figure at its defaults (scripts/build-pictures.mjs), the one its
//   embed code's link names (#picture-NAME).
// - the element snippet, with JavaScript off and in a sandbox="" frame: the same picture, and a
//   link to the figure that names its settings; where its script runs, the picture is never
//   fetched.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildDist } from '../../scripts/build-dist.mjs';
import { buildPictures } from '../../scripts/build-pictures.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, PHONE, WEB_ROOT, useBrowser } from './harness.mjs';
import { downloadBy, toolbarOf } from './toolbar-helpers.mjs';

const session = useBrowser();
const AUTHOR_PAGE = 'https://course.example.org/attention/index.html';
let scratch = null;
let plain = null; // the export on a host that sends no policy
let strict = null; // the same, under an upload area's policy
let exported = null;
let distDir = null;
let lab = null; // a dist/ with the temperature figure's picture

// Made by the first test that needs it, once the harness's browser is up.
async function exportOnce() {
  if (exported) return;
  scratch = await mkdtemp(join(tmpdir(), 'attention-lab-picture-'));
  // An embed whose author named the page its links should open: the export follows it.
  const { page, problems } = await session.openPage({
    search: `embed.html?figure=temperature&tau=0.5&page=${encodeURIComponent(AUTHOR_PAGE)}`,
  });
  const toolbar = toolbarOf(page, 'temperature');
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  exported = await downloadBy(page, toolbar.getByRole('button', { name: 'Download the whole figure as HTML' }));
  assert.deepEqual(problems, []);
  await writeFile(join(scratch, 'figure.html'), exported.bytes);
  await writeFile(join(scratch, 'host.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Viewer</title>
<link rel="icon" href="data:,"></head><body><iframe sandbox="" src="figure.html" title="Exported figure" width="900" height="700"></iframe></body></html>`);
  plain = await startServer({ root: scratch, port: 0 });
  strict = await startServer({ root: scratch, port: 0, csp: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:" });
}

after(async () => {
  await plain?.close();
  await strict?.close();
  await lab?.close();
  for (const dir of [scratch, distDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function distOnce() {
  if (lab) return;
  distDir = await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
  await buildDist({ from: WEB_ROOT, out: distDir });
  await buildPictures({ dist: distDir, figures: ['temperature'] });
  lab = await startServer({ root: distDir, port: 0, csp: true });
}

/** What an embed shows where it cannot run scripts: its one visible picture and caption. */
async function embedFallback(frame) {
  const picture = frame.locator('figure.noscript-picture:visible');
  await picture.waitFor({ timeout: 10000 });
  assert.equal(await frame.locator('figure.noscript-picture:visible').count(), 1, 'one picture: the figure the link names');
  const image = picture.getByRole('img');
  // The picture is the element's background: load its URL to read its size.
  const size = await image.evaluate(async (box) => {
    const url = /url\("?([^")]+)"?\)/.exec(getComputedStyle(box).backgroundImage)?.[1];
    if (!url) return [0, 0, 0];
    const img = new Image();
    img.src = url;
    await img.decode().catch(() => {});
    const rect = box.getBoundingClientRect();
    return [img.naturalWidth, img.naturalHeight, rect.width, rect.height];
  });
  return { id: await picture.getAttribute('id'), size, name: await image.getAttribute('aria-label'), caption: await picture.locator('figcaption').innerText() };
}

function assertShowsTheEmbed(shown, screenWidth) {
  assert.equal(shown.id, 'picture-temperature');
  assert.ok(shown.size[0] >= 600 && shown.size[1] > 400, `the figure's picture (${shown.size})`);
  assert.ok(shown.size[2] <= screenWidth, `it fits the screen (${shown.size[2]} px)`);
  assert.ok(Math.abs(shown.size[3] / shown.size[2] - shown.size[1] / shown.size[0]) < 0.02, 'in its proportions');
  assert.match(shown.name, /Eight tokens, one knob/);
  assert.match(shown.caption, /^Eight tokens, one knob: a picture of the figure at its default settings/);
}

/** What the fallback shows in `frame` (a page or frame): picture size, caption, link. */
async function fallback(frame) {
  const picture = frame.locator('attention-figure figure.attention-lab-picture');
  await picture.waitFor({ state: 'visible', timeout: 10000 });
  const image = picture.locator('img');
  await image.evaluate((img) => (img.complete ? null : new Promise((done) => { img.onload = done; img.onerror = done; })));
  return {
    size: await image.evaluate((img) => [img.naturalWidth, img.naturalHeight, img.getBoundingClientRect().width]),
    alt: await image.getAttribute('alt'),
    caption: await picture.locator('figcaption').innerText(),
    link: await picture.getByRole('link').getAttribute('href'),
  };
}

function assertShowsTheFigure(shown, screenWidth) {
  assert.ok(shown.size[0] > 200 && shown.size[1] > 100, `a picture of the charts (${shown.size})`);
  assert.ok(shown.size[2] <= screenWidth, `it fits the screen (${shown.size[2]} px)`);
  assert.match(shown.alt, /attention weights/i);
  assert.match(shown.caption, /Settings: query = 7, tau = 0\.5\./);
  assert.match(shown.caption, /Scripts cannot run here/);
  const link = new URL(shown.link);
  assert.equal(`${link.origin}${link.pathname}`, AUTHOR_PAGE, 'the link opens the page the author named');
  assert.equal(link.searchParams.get('temperature.tau'), '0.5');
  assert.equal(link.hash, '#figure-temperature');
}

test('the export\'s name is short and clean, and it has no inline style', async () => {
  await exportOnce();
  assert.equal(exported.name, 'attention-lab-temperature-tau-0-5.html');
  const html = exported.bytes.toString('utf8');
  assert.doesNotMatch(html, /<style\b|\sstyle="/i);
  assert.doesNotMatch(html, /127\.0\.0\.1/, 'nothing points back at where it was exported from');
});

test('JavaScript off: the export shows the picture and its settings', async () => {
  await exportOnce();
  for (const options of [DESKTOP, PHONE]) {
    const context = await session.browser.newContext({ ...options, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${plain.url}figure.html`);
    assertShowsTheFigure(await fallback(page), options.viewport.width);
    await context.close();
  }
});

test('in a sandbox="" frame (a no-script viewer) the export shows the picture and its settings', async () => {
  await exportOnce();
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${plain.url}host.html`);
  assertShowsTheFigure(await fallback(page.frameLocator('iframe[title="Exported figure"]')), 900);
  assert.deepEqual(errors, []);
  await context.close();
});

test('under a policy that refuses its inline script, the export shows the picture', async () => {
  await exportOnce();
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.goto(`${strict.url}figure.html`);
  assertShowsTheFigure(await fallback(page), 1280);
  await context.close();
});

test('with scripts, the live figure shows and the picture stays hidden', async () => {
  await exportOnce();
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${plain.url}figure.html`);
  await page.locator('attention-figure').getByLabel('temperature τ').waitFor({ timeout: 20000 });
  assert.equal(await page.locator('figure.attention-lab-picture').isVisible(), false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the iframe embed with JavaScript off shows the picture its link names', async () => {
  await distOnce();
  for (const options of [DESKTOP, PHONE]) {
    const context = await session.browser.newContext({ ...options, javaScriptEnabled: false });
    const page = await context.newPage();
    const failed = [];
    const fetched = [];
    page.on('response', (r) => { fetched.push(r.url()); if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(`${lab.url}embed.html?figure=temperature&tau=0.5#picture-temperature`);
    assertShowsTheEmbed(await embedFallback(page), options.viewport.width);
    assert.deepEqual(failed, []);
    assert.deepEqual(fetched.filter((url) => url.includes('/pictures/')).map((url) => url.replace(/.*\/pictures\//, '')), ['pictures.css', 'temperature.png'], 'only its own picture is fetched');
    await context.close();
  }
});

test('the iframe embed in a sandbox="" frame shows the picture its link names', async () => {
  await distOnce();
  await exportOnce();
  await writeFile(join(scratch, 'embed-host.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title>
<link rel="icon" href="data:,"></head><body><iframe sandbox="" src="${lab.url}embed.html?figure=temperature&amp;tau=0.5#picture-temperature"
title="Attention Lab: temperature" width="800" height="1100"></iframe></body></html>`);
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.goto(`${plain.url}embed-host.html`);
  assertShowsTheEmbed(await embedFallback(page.frameLocator('iframe')), 800);
  await context.close();
});

test('the element snippet shows the picture and its settings where its script cannot run, and fetches nothing where it can', async () => {
  await distOnce();
  await exportOnce();
  const context = await session.browser.newContext(DESKTOP);
  const labPage = await context.newPage();
  await labPage.goto(`${lab.url}index.html?temperature.tau=0.5`);
  const toolbar = toolbarOf(labPage, 'temperature');
  await toolbar.getByRole('button', { name: 'Embed code', exact: true }).click();
  const snippet = await toolbar.getByLabel('As an element, with its script').inputValue();
  await writeFile(join(scratch, 'element-host.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Course</title>
<link rel="icon" href="data:,"></head><body><h1>Week 3</h1>\n${snippet}\n</body></html>`);
  await writeFile(join(scratch, 'element-viewer.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Viewer</title>
<link rel="icon" href="data:,"></head><body><iframe sandbox="" src="element-host.html" title="Course page" width="900" height="900"></iframe></body></html>`);

  const check = async (frame, width) => {
    const image = frame.locator('attention-figure img');
    await image.waitFor({ state: 'visible', timeout: 10000 });
    await image.evaluate((img) => (img.complete ? null : new Promise((done) => { img.onload = done; img.onerror = done; })));
    const [natural, shown] = await image.evaluate((img) => [img.naturalWidth, img.getBoundingClientRect().width]);
    assert.ok(natural >= 600, `the figure's picture (${natural} px)`);
    assert.ok(shown <= width, `it fits (${shown} px)`);
    assert.match(await image.getAttribute('alt'), /Eight tokens, one knob, at its default settings/);
    const link = frame.locator('attention-figure a');
    assert.equal(await link.innerText(), 'Open the interactive figure at query = 7, tau = 0.5');
    assert.match(await link.getAttribute('href'), /\?temperature\.tau=0\.5#figure-temperature$/);
  };
  for (const options of [DESKTOP, PHONE]) {
    const off = await session.browser.newContext({ ...options, javaScriptEnabled: false });
    const page = await off.newPage();
    await page.goto(`${plain.url}element-host.html`);
    await check(page, options.viewport.width);
    await off.close();
  }
  const viewer = await context.newPage();
  await viewer.goto(`${plain.url}element-viewer.html`);
  await check(viewer.frameLocator('iframe'), 900);

  // With scripts: the live figure, and the picture is never fetched.
  const live = await context.newPage();
  const pictures = [];
  live.on('request', (r) => { if (r.url().includes('/pictures/')) pictures.push(r.url()); });
  await live.goto(`${plain.url}element-host.html`);
  await live.locator('attention-figure').getByLabel('temperature τ').waitFor({ timeout: 20000 });
  assert.equal(await live.locator('attention-figure img').isVisible(), false);
  assert.deepEqual(pictures, []);
  await context.close();
});
