#!/usr/bin/env node
// The page's speed budgets (key presses, long tasks, mounting on a slow CPU), measured in headless Chromium on
// 127.0.0.1 under the page's real CSP:
//   - input → next frame on the temperature τ slider and on the head split stepping to h = 8
//     (median and p95 over --events key presses each);
//   - long tasks (over 50 ms) after load, while the reader works the τ, heads and width-experiment
//     keys sliders;
//   - the first figure usable, and every figure mounted, after navigation;
//   - the main thread's blocking while the figures mount, at 1× and at a 6× slower CPU;
//   - Lighthouse 12 performance scores, mobile and desktop (skip with --no-lighthouse);
//   - the learn figure training (in its Worker): steps taken in the embed in the first 5 s at
//     d_k = 256, and τ key presses while the figure trains on screen beside the same presses idle,
//     with the long tasks meanwhile (--learn-only measures just this).
// A benchmark, not a test: nothing here fails on a number. It writes build/bench/page.json and
// build/bench/page.md; scripts/bench.mjs folds them into docs/performance.md.
// Usage: node scripts/bench-page.mjs [--events 500] [--no-lighthouse] [--learn-only]   (after node scripts/build-web.mjs)

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHROMIUM_PATH, launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { DESKTOP, joined, openPage, pressAll, round, summary } from './bench-page-probe.mjs';
import { learnMarkdown, measureLearn } from './bench-page-learn.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WEB_ROOT = join(ROOT, 'build/web');
const OUT = join(ROOT, 'build/bench');
const args = process.argv.slice(2);
const EVENTS = Number(args[args.indexOf('--events') + 1]) || 500;
const LEARN_ONLY = args.includes('--learn-only');
const LIGHTHOUSE = !args.includes('--no-lighthouse') && !LEARN_ONLY;

/** Navigation → first figure usable and → all mounted; long tasks up to then. */
async function measureLoad(browser, url, cpuSlowdown) {
  const { page, context } = await openPage(browser, url, cpuSlowdown);
  await page.waitForTimeout(500); // let a late long task report itself
  const probe = await page.evaluate(() => window.benchProbe);
  await context.close();
  const during = probe.longTasks.filter((task) => task.start <= probe.ready);
  return {
    cpuSlowdown,
    firstFigureMs: round(probe.mounts[0]?.at ?? null),
    firstFigure: probe.mounts[0]?.name ?? null,
    allFiguresMs: round(probe.ready),
    longTasksWhileMounting: during.length,
    longestTaskWhileMountingMs: round(Math.max(0, ...during.map((t) => t.duration))),
    // Total blocking time as Lighthouse counts it: the part of each long task past 50 ms.
    blockingWhileMountingMs: round(during.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0)),
    slowestMounts: Object.entries(probe.mountTimes).sort((a, b) => b[1] - a[1]).slice(0, 4)
      .map(([name, ms]) => `${name} ${round(ms)} ms`),
  };
}

/**
 * The same presses on an empty page (one bare range input that writes its value): what the
 * measurement itself shows when the page does nothing, the floor under every row.
 */
async function measureBaseline(browser) {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.setContent('<input type="range" id="r" aria-label="r" min="0" max="100" value="50"><output id="o"></output>'
    + '<script>r.addEventListener("input", () => { o.textContent = r.value; });</script>');
  await page.evaluate(instrument); // an init script does not run for setContent's page
  await page.focus('#r');
  const keys = [];
  while (keys.length < EVENTS) keys.push(...Array(20).fill('ArrowRight'), ...Array(20).fill('ArrowLeft'));
  const presses = await pressAll(page, keys.slice(0, EVENTS));
  await context.close();
  return summary(presses);
}

async function measureInput(browser, url) {
  const { page, context } = await openPage(browser, url);
  const loadedAt = await page.evaluate(() => window.benchProbe.ready);
  // τ: back and forth over part of its range, so every press changes the figure.
  const tau = page.locator('#figure-temperature').getByLabel('temperature \u03c4', { exact: true });
  await tau.scrollIntoViewIfNeeded();
  await tau.focus();
  const half = Math.ceil(EVENTS / 20);
  const tauKeys = [];
  while (tauKeys.length < EVENTS) {
    for (let i = 0; i < half; i++) tauKeys.push('ArrowRight');
    for (let i = 0; i < half; i++) tauKeys.push('ArrowLeft');
  }
  const tauPresses = await pressAll(page, tauKeys.slice(0, EVENTS));

  // Heads: k = 2 (h = 4) ↔ k = 3 (h = 8); only the steps that land on h = 8 are kept.
  const heads = page.locator('#figure-heads').getByLabel('heads h = 2^k', { exact: true });
  await heads.scrollIntoViewIfNeeded();
  await heads.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // now k = 2
  await page.waitForTimeout(200); // the setting-up presses are timed too: let them land before counting
  const toEight = [];
  for (let i = 0; i < EVENTS; i++) {
    toEight.push(await pressAll(page, ['ArrowRight']));
    await pressAll(page, ['ArrowLeft']);
  }

  // The width experiment's keys slider, 2 → 64 → 2, each press a full run of T = 2000.
  const keys = page.locator('#figure-why-scale').getByLabel('keys m', { exact: true });
  await keys.scrollIntoViewIfNeeded();
  await keys.focus();
  await page.keyboard.press('Home');
  await page.waitForTimeout(200);
  const widthPresses = await pressAll(page, [...Array(62).fill('ArrowRight'), ...Array(62).fill('ArrowLeft')]);
  await page.waitForTimeout(500);
  const probe = await page.evaluate(() => window.benchProbe);
  await context.close();
  const after = probe.longTasks.filter((task) => task.start > loadedAt);
  return {
    tau: summary(tauPresses),
    headsToEight: summary(joined(toEight)),
    widthExperimentKeys: summary(widthPresses),
    longTasksAfterLoad: after.length,
    longestTaskAfterLoadMs: round(Math.max(0, ...after.map((t) => t.duration))),
  };
}

async function lighthouse(url, formFactor) {
  const out = join(OUT, `lighthouse-${formFactor}.json`);
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const tmp = join(ROOT, 'build/tmp', `lighthouse-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/lighthouse/cli/index.js'), url,
      '--quiet', '--output=json', `--output-path=${out}`, '--only-categories=performance',
      `--chrome-path=${CHROMIUM_PATH}`, `--chrome-flags=${flags.join(' ')}`,
      ...(formFactor === 'desktop' ? ['--preset=desktop'] : [])],
    { env: { ...process.env, TMPDIR: tmp }, maxBuffer: 64 * 1024 * 1024, timeout: 300000 });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const metric = (id) => report.audits[id]?.numericValue ?? null;
  return {
    formFactor,
    score: Math.round(report.categories.performance.score * 100),
    firstContentfulPaintMs: round(metric('first-contentful-paint'), 0),
    largestContentfulPaintMs: round(metric('largest-contentful-paint'), 0),
    totalBlockingTimeMs: round(metric('total-blocking-time'), 0),
    cumulativeLayoutShift: round(metric('cumulative-layout-shift'), 3),
    speedIndexMs: round(metric('speed-index'), 0),
    textCompressionFlagged: (report.audits['uses-text-compression']?.score ?? 1) < 1,
  };
}

function markdown(result) {
  const budget = (value, limit) => (value === null ? 'not measured' : value <= limit ? 'met' : `missed by ${round(value - limit)} ms`);
  const lines = [
    '## The page (headless Chromium, 127.0.0.1, the page\'s CSP)',
    '',
    `Chromium ${result.chromium}, ${result.cpu}, load average ${result.loadAverage.join(' ')}, ${result.date}.`,
    '',
    'Each key press is timed twice. *Next frame*: from the press to just after the next frame is',
    'painted; it includes the wait for the display\'s next frame (60 Hz), and presses are sent just',
    'after a frame, so even the empty page in the first row shows most of a frame here. *Work*: the',
    'part the page controls, the press\'s wait to be handled, the handlers, and that frame\'s',
    'animation callbacks, style, layout and paint. The budgets (one frame) are judged on work.',
    '',
    '| key presses | next frame, median | p95 | work, median | p95 | budget (work) |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  const row = (name, r, judged) => lines.push(`| ${name} (${r.events}) | ${r.medianMs} ms | ${r.p95Ms} ms | ` +
    `${r.workMedianMs} ms | ${r.workP95Ms} ms | ${judged ? `median ≤ 8 ms: ${budget(r.workMedianMs, 8)}; p95 ≤ 16 ms: ${budget(r.workP95Ms, 16)}` : ''} |`);
  row('empty page: a bare range input', result.input.baseline, false);
  row('τ slider', result.input.tau, true);
  row('head split to h = 8', result.input.headsToEight, true);
  row('width experiment keys slider', result.input.widthExperimentKeys, true);
  lines.push('', '| after load | count | longest | budget |', '| --- | --- | --- | --- |');
  lines.push(`| long tasks (> 50 ms) over all those presses | ${result.input.longTasksAfterLoad} | ${result.input.longestTaskAfterLoadMs} ms | none: ${result.input.longTasksAfterLoad === 0 ? 'met' : 'missed'} |`,
    '', '| load | first figure usable | all figures mounted | long tasks while mounting | longest | blocking (TBT) | budget |',
    '| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of result.load) {
    lines.push(`| CPU ${row.cpuSlowdown}× | ${row.firstFigureMs} ms (${row.firstFigure}) | ${row.allFiguresMs} ms | ` +
      `${row.longTasksWhileMounting} | ${row.longestTaskWhileMountingMs} ms | ${row.blockingWhileMountingMs} ms | ` +
      `${row.cpuSlowdown === 1 ? `first figure ≤ 500 ms: ${budget(row.firstFigureMs, 500)}` : ''} |`);
  }
  for (const row of result.load) lines.push('', `Slowest figure mounts at CPU ${row.cpuSlowdown}×: ${row.slowestMounts.join(', ')}.`);
  if (result.lighthouse.length) {
    lines.push('', '| Lighthouse 12.8.2 | score | FCP | LCP | TBT | CLS | compression flagged | budget |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of result.lighthouse) {
      lines.push(`| ${row.formFactor} | ${row.score} | ${row.firstContentfulPaintMs} ms | ${row.largestContentfulPaintMs} ms | ` +
        `${row.totalBlockingTimeMs} ms | ${row.cumulativeLayoutShift} | ${row.textCompressionFlagged ? 'yes' : 'no'} | ≥ 95: ${row.score >= 95 ? 'met' : `missed by ${95 - row.score}`} |`);
    }
  } else {
    lines.push('', 'Lighthouse: not run (--no-lighthouse).');
  }
  if (result.learn) lines.push(learnMarkdown(result.learn));
  return `${lines.join('\n')}\n`;
}

if (!existsSync(join(WEB_ROOT, 'index.html'))) {
  console.error('bench-page: build/web has no index.html; run "node scripts/build-web.mjs" first');
  process.exit(1);
}
mkdirSync(OUT, { recursive: true });
const server = await startServer({ root: WEB_ROOT, port: 0, csp: true });
const url = new URL('index.html', server.url).href;
const chromium = await launchChromium();
const chromiumVersion = chromium.browser.version();
try {
  if (LEARN_ONLY) {
    const learn = await measureLearn(chromium.browser, server.url, EVENTS);
    console.log(JSON.stringify(learn, null, 2));
    console.log(learnMarkdown(learn));
    process.exit(0);
  }
  const load = [];
  for (const slowdown of [1, 6]) load.push(await measureLoad(chromium.browser, url, slowdown));
  const input = await measureInput(chromium.browser, url);
  input.baseline = await measureBaseline(chromium.browser);
  const learn = await measureLearn(chromium.browser, server.url, EVENTS);
  await chromium.close();
  const lighthouseRows = [];
  if (LIGHTHOUSE) for (const formFactor of ['mobile', 'desktop']) lighthouseRows.push(await lighthouse(url, formFactor));
  const result = {
    date: new Date().toISOString(),
    chromium: chromiumVersion,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`,
    loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
    events: EVENTS,
    load, input, learn, lighthouse: lighthouseRows,
  };
  writeFileSync(join(OUT, 'page.json'), `${JSON.stringify(result, null, 2)}\n`);
  const text = markdown(result);
  writeFileSync(join(OUT, 'page.md'), text);
  console.log(text);
} finally {
  await chromium.close();
  await server.close();
}
