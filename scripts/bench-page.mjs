#!/usr/bin/env node
// The page's speed budgets (key presses, long tasks, mounting on a slow CPU), measured in headless Chromium on
// 127.0.0.1 under the page's real CSP:
//   - input → next frame and main-thread work on the temperature τ slider, the head split stepping
//     to h = 8 and the width experiment's keys slider, beside an empty page's, at 1280 and 375 px
//     and on a CPU slowed 4× (median and p95 over --events key presses each);
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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHROMIUM_PATH, launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { DESKTOP, PHONE, backAndForth, joined, openEmptyPage, openPage, pressAll, round, summary } from './bench-page-probe.mjs';
import { learnMarkdown, measureLearn } from './bench-page-learn.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WEB_ROOT = join(ROOT, 'build/web');
const OUT = join(ROOT, 'build/bench');
const args = process.argv.slice(2);
const EVENTS = Number(args[args.indexOf('--events') + 1]) || 500;
const LEARN_ONLY = args.includes('--learn-only');
const LIGHTHOUSE = !args.includes('--no-lighthouse') && !LEARN_ONLY;
const WORK_BUDGET = 2.5; // a key press's work, at most this many times the empty page's

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

// Presses go in rounds of this many, the empty page's and the page's taking turns.
const ROUND = 20;

/**
 * The three key presses the page's budget names, on a page opened with `contextOptions` and
 * the CPU slowed `cpuSlowdown` times, `events` presses each, and the same number of presses on
 * an empty page (one bare range input that writes its value: what the measurement itself shows
 * when the page does nothing, the floor under every row). The two take turns, ROUND presses at
 * a time: the machine's speed drifts over minutes by more than the budget's margin (an empty
 * page measured once, after the page, moved 1.2–1.9 ms between runs; measured before and after,
 * the two halves still differed by up to 0.5 ms at 1× and 2.4 ms at 4×), and in turns both see
 * the same drift. The empty page is in a browser of its own (`emptyBrowser`): two pages of one
 * browser would take turns in front, and a page brought back to the front paints its whole
 * screen again, on the same two cores, while its first presses are timed.
 */
async function measureInput(browser, emptyBrowser, url, { contextOptions = DESKTOP, cpuSlowdown = 1, events = EVENTS } = {}) {
  const empty = await openEmptyPage(emptyBrowser, cpuSlowdown, { contextOptions });
  const emptyKeys = backAndForth(ROUND, ROUND);
  const { page, context } = await openPage(browser, url, cpuSlowdown, { contextOptions });
  const loadedAt = await page.evaluate(() => window.benchProbe.ready);
  const domElements = await page.evaluate(() => document.querySelectorAll('*').length);
  const floor = [];
  // `keys` on the page with the empty page's turns between rounds; kept(i): whether press i counts.
  async function inTurns(keys, kept = () => true) {
    const counted = [];
    for (let start = 0; start < keys.length; start += ROUND) {
      floor.push(await pressAll(empty.page, emptyKeys()));
      const presses = await pressAll(page, keys.slice(start, start + ROUND));
      const keep = (list) => list.filter((_, i) => kept(start + i));
      counted.push({ latencies: keep(presses.latencies), work: keep(presses.work), handling: keep(presses.handling), rendering: keep(presses.rendering) });
      // Let what a press starts after its frame (the width experiment's full run, 150 ms after
      // the last press) end here, not during the empty page's round.
      await page.waitForTimeout(cpuSlowdown > 1 ? 1200 : 400);
    }
    return joined(counted);
  }

  // τ: back and forth over part of its range, so every press changes the figure.
  const tau = page.locator('#figure-temperature').getByLabel('temperature \u03c4', { exact: true });
  await tau.scrollIntoViewIfNeeded();
  await tau.focus();
  const half = Math.ceil(events / 20);
  const tauKeys = [];
  while (tauKeys.length < events) {
    for (let i = 0; i < half; i++) tauKeys.push('ArrowRight');
    for (let i = 0; i < half; i++) tauKeys.push('ArrowLeft');
  }
  const tauPresses = await inTurns(tauKeys.slice(0, events));

  // Heads: k = 2 (h = 4) ↔ k = 3 (h = 8); only the steps that land on h = 8 are kept.
  const heads = page.locator('#figure-heads').getByLabel('heads h = 2^k', { exact: true });
  await heads.scrollIntoViewIfNeeded();
  await heads.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // now k = 2
  await page.waitForTimeout(200); // the setting-up presses are timed too: let them land before counting
  const headsKeys = Array.from({ length: 2 * events }, (_, i) => (i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'));
  const toEight = await inTurns(headsKeys, (i) => i % 2 === 0);

  // The width experiment's keys slider, 2 → 64 → 2.
  const keys = page.locator('#figure-why-scale').getByLabel('keys m', { exact: true });
  await keys.scrollIntoViewIfNeeded();
  await keys.focus();
  await page.keyboard.press('Home');
  await page.waitForTimeout(200);
  const steps = Math.min(62, Math.max(10, Math.round(events / 8)));
  const widthPresses = await inTurns([...Array(steps).fill('ArrowRight'), ...Array(steps).fill('ArrowLeft')]);
  await page.waitForTimeout(500);
  const probe = await page.evaluate(() => window.benchProbe);
  await context.close();
  await empty.context.close();
  const after = probe.longTasks.filter((task) => task.start > loadedAt);
  return {
    domElements,
    baseline: summary(joined(floor)),
    tau: summary(tauPresses),
    headsToEight: summary(toEight),
    widthExperimentKeys: summary(widthPresses),
    longTasksAfterLoad: after.length,
    longestTaskAfterLoadMs: round(Math.max(0, ...after.map((t) => t.duration))),
  };
}

// Where the presses are measured: the budget's two screens at full speed, and a CPU four times
// slower (a mid-range phone), reported beside them.
const INPUT_CONDITIONS = [
  { name: '1280 px, CPU 1×', contextOptions: DESKTOP, cpuSlowdown: 1, judged: true },
  { name: '375 px, CPU 1×', contextOptions: PHONE, cpuSlowdown: 1, judged: true },
  { name: '1280 px, CPU 4×', contextOptions: DESKTOP, cpuSlowdown: 4, judged: false },
];

async function lighthouse(url, formFactor) {
  const out = join(OUT, `lighthouse-${formFactor}.json`);
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  // Under the system's temp folder: the Chromium Lighthouse starts keeps a Unix socket there,
  // whose path a clone in a deep folder would make too long (scripts/chromium.mjs).
  const tmp = mkdtempSync(join(tmpdir(), 'attention-lab-lighthouse-'));
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
    'animation callbacks, style, layout and paint.',
    '',
    `The budgets, judged on work: at most ${WORK_BUDGET}× the empty page's median work, measured`,
    `in the same conditions, in turns with the page's presses (${ROUND} on one, then ${ROUND} on the other);`,
    'next-frame p95 at most 16 ms at CPU 1×; no long task (over 50 ms) after load. CPU 4× is',
    'reported, not judged.',
  ];
  for (const condition of result.input) {
    const base = condition.baseline.workMedianMs;
    lines.push('', `### ${condition.name}: ${condition.domElements} elements on the page`, '',
      '| key presses | next frame, median | p95 | work, median | p95 | × empty page | budget |',
      '| --- | --- | --- | --- | --- | --- | --- |');
    const row = (name, r, judged) => {
      // Judged on the ratio itself, shown to two decimals: rounded to one first, 2.52× read as
      // 2.5× and passed.
      const exact = base > 0 ? r.workMedianMs / base : null;
      const ratio = exact === null ? null : round(exact, 2);
      const verdict = !judged ? '' : [
        `work ≤ ${WORK_BUDGET}×: ${exact !== null && exact <= WORK_BUDGET ? 'met' : `missed (${ratio}×)`}`,
        condition.judged ? `p95 ≤ 16 ms: ${budget(r.p95Ms, 16)}` : null,
      ].filter(Boolean).join('; ');
      lines.push(`| ${name} (${r.events}) | ${r.medianMs} ms | ${r.p95Ms} ms | ${r.workMedianMs} ms | ${r.workP95Ms} ms | ${judged ? `${ratio}×` : '1×'} | ${verdict} |`);
    };
    row(`empty page: a bare range input, in turns with the page, ${ROUND} presses each`, condition.baseline, false);
    row('τ slider', condition.tau, true);
    row('head split to h = 8', condition.headsToEight, true);
    row('width experiment keys slider', condition.widthExperimentKeys, true);
    const longTasks = condition.longTasksAfterLoad;
    lines.push('', `Long tasks (over 50 ms) after load, over all those presses: ${longTasks}` +
      `${longTasks ? `, the longest ${condition.longestTaskAfterLoadMs} ms` : ''}` +
      `${condition.judged ? ` (budget none: ${longTasks === 0 ? 'met' : 'missed'})` : ''}.`);
  }
  lines.push('', '## Loading', '', '| load | first figure usable | all figures mounted | long tasks while mounting | longest | blocking (TBT) | budget |',
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
const emptyChromium = await launchChromium(); // the empty page's own browser (measureInput)
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
  const input = [];
  for (const condition of INPUT_CONDITIONS) {
    // Fewer presses on the slowed CPU: each takes four times as long.
    const options = { ...condition, events: condition.cpuSlowdown > 1 ? Math.ceil(EVENTS / 4) : EVENTS };
    const measured = await measureInput(chromium.browser, emptyChromium.browser, url, options);
    input.push({ name: condition.name, judged: condition.judged, ...measured });
  }
  const learn = await measureLearn(chromium.browser, server.url, EVENTS);
  await chromium.close();
  await emptyChromium.close();
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
  await emptyChromium.close();
  await server.close();
}
