// Mounting the page: figures are drawn one per task, the one on screen first, so the page
// answers at once even on a slow machine; and the width experiment's full
// run is spread over tasks too, so the keys slider never waits for it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, useBrowser } from './harness.mjs';

const session = useBrowser();

// Before the page's own scripts: count animation frames, and note at which frame each figure
// reported itself mounted (mount-figure.js marks 'attention-lab:figure-mounted').
function recordMounts() {
  window.mountLog = [];
  let frames = 0;
  const tick = () => { frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'attention-lab:figure-mounted') window.mountLog.push({ name: entry.detail, frame: frames });
    }
  }).observe({ type: 'mark' });
}

async function openRecorded(hash = '') {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.addInitScript(recordMounts);
  // A 4× slower CPU, as on a cheap phone: each mount then spans more than a frame's time, so
  // one task for all of them would show as a single frame in the log.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(new URL(`index.html${hash}`, session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 30000 });
  const log = await page.evaluate(() => window.mountLog);
  return { page, context, log };
}

test('figures mount one at a time, the one on screen first, with frames painted in between', async () => {
  const { page, context, log } = await openRecorded();
  const all = await page.evaluate(() => [...document.querySelectorAll('[data-figure]')].map((f) => f.dataset.figure));
  assert.deepEqual([...log.map((entry) => entry.name)].sort(), [...all].sort(), 'every figure mounted once');
  const firstOnScreen = await page.evaluate(() => {
    const figures = [...document.querySelectorAll('[data-figure]')];
    window.scrollTo(0, 0);
    return figures.find((f) => f.getBoundingClientRect().top < innerHeight)?.dataset.figure ?? figures[0].dataset.figure;
  });
  assert.equal(log[0].name, firstOnScreen, `mount order: ${log.map((e) => e.name).join(', ')}`);
  const frames = new Set(log.map((entry) => entry.frame));
  assert.ok(frames.size >= 3, `mounts spread over ${frames.size} frames (${JSON.stringify(log)})`);
  await context.close();
});

test('a link to a figure further down mounts that figure first', async () => {
  const { context, log } = await openRecorded('#figure-cost');
  assert.equal(log[0].name, 'cost', `mount order: ${log.map((e) => e.name).join(', ')}`);
  await context.close();
});

test('the width experiment answers the keys slider at once and fills in T = 2000 afterwards', async () => {
  const { page, problems } = await session.openPage();
  const figure = page.locator('#figure-why-scale');
  await figure.getByText(/^Averages over T = 2000/).waitFor();
  const keys = figure.getByLabel('keys m', { exact: true });
  // In the same task as the change, the figure already shows 64 keys' preview, not the old run.
  const seenAtOnce = await keys.evaluate((input) => {
    input.value = '64';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return input.closest('figure').querySelector('.why-scale-preview')?.textContent ?? '';
  });
  assert.match(seenAtOnce, /^Preview from T = 50 .*computing T = 2000/);
  await figure.getByText(/^Averages over T = 2000 .* 64 random keys/).waitFor();
  assert.deepEqual(problems, []);
});

test('figures far below are not rendered until the reader nears them, then draw as usual', async () => {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.goto(new URL('index.html', session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 30000 });
  const last = page.locator('#figure-check-yourself');
  assert.equal(await last.evaluate((figure) => getComputedStyle(figure).contentVisibility), 'auto');
  // Skipped: mounted (its controls exist for keyboard and screen reader) but not laid out.
  assert.ok(await last.locator('input, button').count() > 0, 'the far figure is mounted');
  assert.equal(await last.evaluate((figure) => figure.innerText.length), 0, 'the far figure is not rendered yet');
  await last.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#figure-check-yourself').innerText.length > 100);
  const box = await last.boundingBox();
  assert.ok(box.height > 200, `the figure drew at its own height (${box.height} px)`);
  await context.close();
});
