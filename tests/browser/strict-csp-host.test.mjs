// A course author on a strict-CSP host (an LMS): the host page is served with
// `default-src 'self'; script-src 'self' …` and only the additions the README's
// "LMS and strict CSP" section lists for each way of embedding. Each way must show its figure,
// the iframe must grow to its content through attention-lab-resize.js (no inline script, no
// style attribute), and neither the host nor the figure may log a console error or a policy
// violation. The lab itself is dist/, served from another origin.

import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';

const session = useBrowser();
let distDir = null;
let hostDir = null;
let lab = null; // dist/ on its own origin, under the lab's own CSP
let labOrigin = null;
const hosts = [];

before(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
  await buildDist({ from: WEB_ROOT, out: distDir });
  lab = await startServer({ root: distDir, port: 0, csp: true });
  labOrigin = new URL(lab.url).origin;
  hostDir = await mkdtemp(join(tmpdir(), 'attention-lab-lms-'));
  // Ways that self-host a file copy it next to the course page, as an author would.
  await copyFile(join(distDir, 'attention-lab-resize.js'), join(hostDir, 'attention-lab-resize.js'));
  await copyFile(join(distDir, 'attention-figure.js'), join(hostDir, 'attention-figure.js'));
  await copyFile(join(distDir, 'favicon.svg'), join(hostDir, 'favicon.svg')); // the course's own icon
});

after(async () => {
  for (const host of hosts) await host.close();
  await lab?.close();
  for (const dir of [distDir, hostDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** Serves the host folder from 127.0.0.2 under `policy` (LAB stands for the lab's origin). */
async function lmsHost(policy) {
  const host = await startServer({ root: hostDir, port: 0, host: '127.0.0.2', csp: policy.replaceAll('LAB', labOrigin) });
  hosts.push(host);
  return host;
}

/** Opens a course page; resolves to { context, page, problems } with CSP violations recorded. */
async function openCoursePage(url) {
  const context = await session.browser.newContext(DESKTOP);
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console (${m.location().url}): ${m.text().slice(0, 300)}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
  await page.goto(url);
  return { context, page, problems };
}

async function violations(page) {
  const all = [];
  for (const frame of page.frames()) all.push(...(await frame.evaluate(() => window.__violations ?? []).catch(() => [])));
  return all;
}

const coursePage = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="favicon.svg">
<title>Week 3: attention</title></head><body><h1>Week 3: attention</h1>\n${body}\n<p>After the figure.</p></body></html>`;

const iframeTag = (figure, search) => `<iframe src="${lab.url}embed.html?figure=${figure}${search}" title="Attention Lab: ${figure}"
  data-attention-lab="${figure}" width="100%" height="640" loading="lazy"></iframe>`;

/** Waits until the frame's height was set from its report, and checks it matches the content. */
async function assertFrameFits(page, figure) {
  const frameElement = page.locator(`iframe[data-attention-lab="${figure}"]`);
  try {
    await page.waitForFunction((name) => document.querySelector(`iframe[data-attention-lab="${name}"]`).style.height !== '', figure, { timeout: 20000 });
  } catch (error) {
    // Say how far the frame got: still starting (its core never came), or started and unheard.
    const inside = page.frames().find((f) => f.url().includes(`figure=${figure}`));
    const state = await inside?.evaluate(() => `ready=${document.documentElement.dataset.labReady}, status "${document.querySelector('.figure-status')?.textContent ?? ''}"`).catch((e) => e.message);
    throw new Error(`${figure}: the frame's height was never set (${inside ? state : 'no frame document'}): ${error.message}`);
  }
  // clientHeight: the frame's inner area, without the border browsers draw around an iframe.
  const frameHeight = await frameElement.evaluate((f) => f.clientHeight);
  const contentHeight = await page.frameLocator(`iframe[data-attention-lab="${figure}"]`).locator('html').evaluate((html) => html.getBoundingClientRect().height);
  assert.ok(frameHeight !== 640, `${figure}: the frame grew from its 640 px fallback`);
  assert.ok(Math.abs(frameHeight - Math.ceil(contentHeight)) <= 2, `${figure}: frame ${frameHeight}px, content ${contentHeight}px`);
  return frameHeight;
}

test('iframe + attention-lab-resize.js from the lab: script-src and frame-src name the lab, nothing inline', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self' LAB; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-from-lab.html'), coursePage(
    `<script src="${lab.url}attention-lab-resize.js" defer></script>\n${iframeTag('temperature', '&query=2&tau=0.5')}\n${iframeTag('heads', '&k=2')}`));
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-from-lab.html`);
  const frame = page.frameLocator('iframe[data-attention-lab="temperature"]');
  assert.equal(await frame.getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
  await assertFrameFits(page, 'temperature');
  const headsHeight = await assertFrameFits(page, 'heads');
  assert.ok(headsHeight > 900, `the heads figure is ${headsHeight}px tall`);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('iframe + a self-hosted copy of attention-lab-resize.js: script-src \'self\' only; the origin check and height check hold', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self'; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-self-hosted.html'), coursePage(
    `<script src="attention-lab-resize.js" data-allowed-origin="${labOrigin}" defer></script>\n${iframeTag('temperature', '&tau=2')}`));
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-self-hosted.html`);
  await assertFrameFits(page, 'temperature');
  const frame = page.frames().find((f) => f.url().startsWith(lab.url));
  const height = () => page.locator('iframe[data-attention-lab]').evaluate((f) => f.style.height);
  // Reports that fail the height check are ignored: only a finite number (of type number),
  // above 0 and below 20 000, is a height; a sane one is applied.
  for (const bogus of [-5, 0, 1e9, 'NaN', null, '20000', '500', '0x1f4', '1e3', true, [654], 20000, Infinity, NaN]) {
    await frame.evaluate((h) => window.parent.postMessage({ type: 'attention-lab:height', height: h }, '*'), bogus);
  }
  await page.waitForTimeout(100);
  assert.notEqual(await height(), '500px');
  assert.notEqual(await height(), '1000px');
  assert.notEqual(await height(), '654px');
  // Just below the limit is taken (rounded up to a whole pixel, as every height is).
  await frame.evaluate(() => window.parent.postMessage({ type: 'attention-lab:height', height: 19999.9 }, '*'));
  await page.waitForFunction(() => document.querySelector('iframe[data-attention-lab]').style.height === '20000px');
  await frame.evaluate(() => window.parent.postMessage({ type: 'attention-lab:height', height: 777.2 }, '*'));
  await page.waitForFunction(() => document.querySelector('iframe[data-attention-lab]').style.height === '778px');
  // A message from the host's own window (not the frame) is ignored.
  await page.evaluate(() => window.postMessage({ type: 'attention-lab:height', height: 300 }, '*'));
  await page.waitForTimeout(100);
  assert.equal(await height(), '778px');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('attention-lab-resize.js added after its frame has started still sizes that frame', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self'; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-script-late.html'), coursePage(iframeTag('temperature', '')));
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-script-late.html`);
  const inside = () => page.frames().find((f) => f.url().startsWith(lab.url));
  await expectReady(inside);
  // The frame has reported its height to no one; the script arrives afterwards, as a host
  // that loads its scripts late (or an LMS that injects them) would add it.
  assert.equal(await page.locator('iframe[data-attention-lab]').evaluate((f) => f.style.height), '');
  await page.evaluate((origin) => {
    const script = document.createElement('script');
    script.src = 'attention-lab-resize.js';
    script.dataset.allowedOrigin = origin;
    document.body.appendChild(script);
  }, labOrigin);
  await assertFrameFits(page, 'temperature');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Waits until the frame `inside()` finds has mounted its figure (and so sent its first height). */
async function expectReady(inside) {
  for (let waited = 0; waited < 20000; waited += 100) {
    if (await inside()?.evaluate(() => document.documentElement.dataset.labReady === 'true').catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the frame never finished starting');
}

test('attention-lab-resize.js ignores a frame whose origin is not the one named in data-allowed-origin', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self'; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-wrong-origin.html'), coursePage(
    `<script src="attention-lab-resize.js" data-allowed-origin="https://lab.example.org" defer></script>\n${iframeTag('temperature', '')}`));
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-wrong-origin.html`);
  const frame = page.frameLocator('iframe[data-attention-lab]');
  await frame.getByLabel('temperature τ').waitFor();
  await page.waitForTimeout(300); // the frame has reported its height by now
  assert.equal(await page.locator('iframe[data-attention-lab]').evaluate((f) => f.style.height), '');
  assert.equal(await page.locator('iframe[data-attention-lab]').evaluate((f) => f.clientHeight), 640);
  assert.deepEqual(problems, []);
  await context.close();
});

test('iframe with no script at all: default-src \'self\'; frame-src names the lab', async () => {
  const host = await lmsHost("default-src 'self'; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-no-script.html'), coursePage(iframeTag('cost', '&n=64')));
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-no-script.html`);
  const frame = page.frameLocator('iframe[data-attention-lab]');
  await frame.locator('figure[data-figure="cost"]').waitFor();
  await page.frames().find((f) => f.url().startsWith(lab.url)).waitForFunction(() => document.documentElement.dataset.labReady === 'true');
  assert.equal(await frame.locator('.figure-error:visible').count(), 0);
  assert.equal(await page.locator('iframe[data-attention-lab]').evaluate((f) => f.clientHeight), 640, 'keeps the height it was given');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [way, policy, src] of [
  ['a self-hosted attention-figure.js', "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'", 'attention-figure.js'],
  ['attention-figure.js from the lab', "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' LAB", null],
]) {
  test(`element, ${way}: script-src adds 'wasm-unsafe-eval', and nothing is fetched from data:`, async () => {
    const host = await lmsHost(policy);
    const file = `element-${src ? 'self' : 'lab'}.html`;
    await writeFile(join(hostDir, file), coursePage(
      `<script src="${src ?? `${lab.url}attention-figure.js`}"></script>
<attention-figure name="temperature" query="2" tau="0.5"></attention-figure>
<attention-figure name="cost"></attention-figure>`));
    const { context, page, problems } = await openCoursePage(`${host.url}${file}`);
    const requests = [];
    page.on('request', (r) => requests.push(r.url().slice(0, 40)));
    await page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].every((e) => e.dataset.labReady === 'true'), null, { timeout: 20000 });
    const temperature = page.locator('attention-figure[name="temperature"]');
    assert.equal(await temperature.getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
    assert.match(await temperature.getByLabel('on key').innerText(), /\S/);
    assert.equal(await page.locator('attention-figure').locator('.figure-error:visible').count(), 0);
    assert.ok((await page.locator('attention-figure[name="cost"]').evaluate((e) => e.getBoundingClientRect().height)) > 200);
    assert.deepEqual(requests.filter((u) => u.startsWith('data:')), []);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

/** The frame's page background and theme, as the reader sees them. */
function frameScheme(frame) {
  return frame.evaluate(() => ({
    theme: document.documentElement.dataset.alTheme ?? null,
    background: getComputedStyle(document.querySelector('[data-figure]') ?? document.body).backgroundColor,
  }));
}

/** Waits until the frame shows `theme`; returns its background then. */
async function frameShows(frame, theme) {
  await frame.waitForFunction((wanted) => document.documentElement.dataset.alTheme === wanted, theme, { timeout: 10000 });
  return (await frameScheme(frame)).background;
}

const luminance = (rgb) => rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).reduce((sum, channel) => sum + channel, 0);

test('theme=host: the frame takes the host\'s data-theme, follows its toggle, and hears no other window', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self'; frame-src LAB");
  await writeFile(join(hostDir, 'iframe-host-theme.html'), `<!doctype html><html lang="en" data-theme="dark"><head><meta charset="utf-8">
<link rel="icon" href="favicon.svg"><title>Week 3</title>
<script src="attention-lab-resize.js" data-allowed-origin="${labOrigin}" data-theme-from="data-theme" defer></script></head>
<body>${iframeTag('temperature', '&theme=host')}\n${iframeTag('map', '&theme=light')}</body></html>`);
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-host-theme.html`);
  const frames = () => page.frames().filter((f) => f.url().startsWith(lab.url));
  await page.waitForFunction(() => document.querySelectorAll('iframe[data-attention-lab]').length === 2);
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height !== ''), null, { timeout: 20000 });
  const frame = frames().find((f) => f.url().includes('figure=temperature'));
  const sibling = frames().find((f) => f.url().includes('figure=map'));
  const dark = await frameShows(frame, 'dark');
  await page.evaluate(() => { document.documentElement.dataset.theme = 'light'; });
  const light = await frameShows(frame, 'light');
  assert.ok(luminance(dark) < luminance(light), `the background flipped: ${dark} in dark, ${light} in light`);
  await page.evaluate(() => { document.documentElement.dataset.theme = 'dark'; });
  assert.equal(await frameShows(frame, 'dark'), dark, 'and back');

  // Only the window that holds the frame may say: not the frame itself, not a sibling frame.
  await frame.evaluate(() => window.postMessage({ type: 'attention-lab:scheme', scheme: 'light' }, '*'));
  await sibling.evaluate(() => window.parent.frames[0].postMessage({ type: 'attention-lab:scheme', scheme: 'light' }, '*'));
  await page.waitForTimeout(200);
  assert.deepEqual(await frameScheme(frame), { theme: 'dark', background: dark });
  // The frame that asked for light is not told the host's scheme.
  assert.equal((await frameScheme(sibling)).theme, 'light');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('theme=host with no named switch: the frame follows the host\'s computed color-scheme', async () => {
  const host = await lmsHost("default-src 'self'; script-src 'self' LAB; frame-src LAB");
  await writeFile(join(hostDir, 'scheme.css'), ':root { color-scheme: light; } :root.night { color-scheme: dark; }');
  await writeFile(join(hostDir, 'iframe-host-scheme.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="favicon.svg"><link rel="stylesheet" href="scheme.css"><title>Week 3</title></head>
<body>${iframeTag('map', '&theme=host')}\n<script src="${lab.url}attention-lab-resize.js" defer></script></body></html>`);
  const { context, page, problems } = await openCoursePage(`${host.url}iframe-host-scheme.html`);
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 20000 });
  const frame = page.frames().find((f) => f.url().startsWith(lab.url));
  const light = await frameShows(frame, 'light');
  await page.evaluate(() => document.documentElement.classList.add('night'));
  const dark = await frameShows(frame, 'dark');
  assert.ok(luminance(dark) < luminance(light), `the background flipped: ${light} → ${dark}`);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});
