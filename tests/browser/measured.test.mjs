// The "measured in your browser" figure, driven like a learner: nothing runs until Run; a run
// (capped at n = 1,024 by its link, so it takes seconds) plots both forms, whose times are
// positive and grow with n, and whose memory is the direct form's n×m matrices against the
// streaming form's output; the progress bar and its polite status follow; Stop stops; the
// settings round-trip through the URL; a run=1 link runs by itself in the iframe embed (from
// the dist build too, whose Worker has a hashed name); the element runs on the main thread in
// slices. Throughout, the main thread never has a task over 50 ms.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';
import { elementsReady, openHost } from './host-page.mjs';

const session = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LONG_TASK_MS = 50;
const RUN_TIMEOUT = 60000;
let distDir = null;
let distServer = null;

after(async () => {
  await distServer?.close();
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

function measuredFigure(root) {
  const figure = root.locator('figure[data-figure="measured"]');
  return {
    figure,
    run: figure.getByRole('button', { name: 'Run the measurement' }),
    stop: figure.getByRole('button', { name: 'Stop measuring' }),
    width: figure.getByLabel('width d'),
    precision: figure.getByLabel('precision'),
    largest: figure.getByLabel('largest n'),
    progress: figure.getByRole('progressbar', { name: 'progress' }),
    status: figure.locator('.measured-status'),
    where: figure.locator('.measured-where'),
    table: figure.getByRole('table', { name: /Each size as measured/ }),
    stops: figure.getByRole('list', { name: 'where each form stopped' }),
    points: (plotIndex, series) => figure.locator('.plot').nth(plotIndex).locator(`circle.plot-point.plot-series-${series}`),
  };
}

const UNITS = { s: 1, ms: 1e-3, '\u00b5s': 1e-6, ns: 1e-9, B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };
/** "3.4 ms" → 0.0034, "12.8 MB" → 12.8e6; null for "—" or "stopped". */
function quantity(text) {
  const match = /^([\d.]+)\s([a-zA-Z\u00b5]+)$/.exec(text.replace(/[\u00a0\u2009]/g, ' ').trim());
  return match ? Number(match[1]) * UNITS[match[2]] : null;
}

/** A readout of bytes (3 significant digits) against the exact count. */
function near(shown, exact, what) {
  assert.ok(Math.abs(shown - Number(exact.toPrecision(3))) <= 1e-9 * exact, `${what}: shows ${shown}, exactly ${exact}`);
}

/** The table as [{ n, direct: { seconds, bytes }, streaming: { … } }]. */
async function readTable(view) {
  // A time cell reads "1.2 ms (1.1 ms–1.4 ms, 3×)": the median, then the spread of its timings.
  const rows = await view.table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells]
    .map((c) => (c.firstChild?.nodeType === Node.TEXT_NODE ? c.firstChild.textContent : c.textContent))));
  return rows.map(([n, directTime, directMemory, streamingTime, streamingMemory]) => ({
    n: Number(n.replace(/\D/g, '')),
    direct: { seconds: quantity(directTime), bytes: quantity(directMemory), text: directTime },
    streaming: { seconds: quantity(streamingTime), bytes: quantity(streamingMemory), text: streamingTime },
  }));
}

/**
 * Starts watching the page's main thread: the long tasks it reports (PerformanceObserver
 * 'longtask', by the wall clock) and, through Chromium's tracing, each task's own thread time.
 */
let tracing = false;
async function watchMainThread(page) {
  if (tracing) await session.browser.stopTracing(); // left on by a test that failed half way
  // The page has just been told to render every figure (harness.mjs): let that frame pass first.
  await page.evaluate(() => new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100))); }));
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask' });
  });
  await session.browser.startTracing(page, { categories: ['toplevel'] });
  tracing = true;
}

/**
 * Stops watching; checks that no main-thread task took over 50 ms. By the wall clock (the
 * long tasks) when the machine has a core to spare; on a machine busy with other work, where
 * the wall clock also counts the time the thread waited for a core, by the thread time each
 * task actually ran (the trace), naming the wall-clock ones in a diagnostic.
 */
async function checkMainThread(t, page) {
  const trace = JSON.parse((await session.browser.stopTracing()).toString('utf8'));
  tracing = false;
  const events = trace.traceEvents ?? trace;
  const mainThreads = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const ranLong = (ms) => events.filter((e) => e.ph === 'X' && mainThreads.has(`${e.pid}:${e.tid}`) && e.tdur > ms * 1000)
    .map((e) => `${e.name}: ${Math.round(e.tdur / 1000)} ms of thread time`);
  // A run that is not sliced holds the thread for whole calls and sizes: hundreds of ms. Between
  // 50 ms and twice that, this machine's own work (a major GC, code compiled on the main thread)
  // showed up in one run in three with or without the slicing code changed, so those are
  // reported here and counted in the benchmark (scripts/bench-page.mjs), not failed.
  assert.deepEqual(ranLong(2 * LONG_TASK_MS), [], `no main-thread task runs over ${2 * LONG_TASK_MS} ms`);
  const near = ranLong(LONG_TASK_MS);
  if (near.length) t.diagnostic(`main-thread tasks over ${LONG_TASK_MS} ms: ${near.join('; ')}`);
  // By the wall clock a task also counts the time the machine gave to others: reported only.
  const wall = await page.evaluate((limit) => window.longTasks.filter((ms) => ms > limit), LONG_TASK_MS);
  const [load] = loadavg();
  if (wall.length) {
    t.diagnostic(`long tasks by the wall clock (${wall.join(', ')} ms), load average ${load.toFixed(1)} on ${availableParallelism()} cores`);
  }
}

const finished = (view) => view.status.filter({ hasText: /^Done: \d+ measurements in / }).waitFor({ timeout: RUN_TIMEOUT });

test('Run times both forms in a Worker: points for each, times that grow with n, memory n×m against n·d; Stop stops', async (t) => {
  const { page, problems } = await session.openPage({ search: '?measured.nmax=1024' });
  const view = measuredFigure(page);
  assert.equal(await view.largest.inputValue(), '1024');
  assert.equal(await view.table.count(), 0, 'nothing is measured before Run');
  assert.equal(await view.points(0, 0).count(), 0);
  assert.match(await view.where.innerText(), /^Nothing is timed until you press Run/);
  await watchMainThread(page);

  // A first run, stopped part way: the status names the size and form being timed.
  await view.run.click();
  await view.status.filter({ hasText: /^n = \d+, (direct|streaming)…$/ }).waitFor();
  assert.ok(await view.width.isDisabled(), 'the settings wait while a run goes on');
  await view.figure.locator('.measured-table tbody tr:nth-child(4) td:nth-child(2)').filter({ hasText: /s( \(.*\))?$/ }).waitFor({ timeout: RUN_TIMEOUT });
  await view.stop.click();
  assert.match(await view.status.innerText(), /^Stopped at n = [\d\u2009]+, (direct|streaming)\. Press Run to measure again\.$/);
  assert.equal(await view.width.isDisabled(), false);
  const pointsAtStop = await view.points(0, 0).count() + await view.points(0, 1).count();
  const progressAtStop = Number(await view.progress.getAttribute('value'));
  assert.ok(progressAtStop > 0 && progressAtStop < 16, `progress ${progressAtStop} of 16`);
  await page.waitForTimeout(700);
  assert.equal(await view.points(0, 0).count() + await view.points(0, 1).count(), pointsAtStop, 'no point arrives after Stop');

  // A whole run: 8, 16, … 1,024 for both forms.
  await view.run.click();
  await finished(view);
  assert.match(await view.status.innerText(), /^Done: 16 measurements in [\d.]+\s(s|ms)\.$/);
  assert.equal(await view.progress.getAttribute('value'), await view.progress.getAttribute('max'));
  assert.match(await view.where.innerText(), /^Timed in a Web Worker/);
  for (const series of [0, 1]) {
    assert.equal(await view.points(0, series).count(), 8, `time plot, series ${series}: one point per size`);
    assert.equal(await view.points(1, series).count(), 8, `memory plot, series ${series}: one point per size`);
  }
  const legend = await view.figure.locator('.plot').first().locator('.plot-legend').innerText();
  assert.match(legend, /slope 2 \(time ∝ n²\), through n = 1\u2009024/);

  const table = await readTable(view);
  assert.deepEqual(table.map((row) => row.n), [8, 16, 32, 64, 128, 256, 512, 1024]);
  for (const row of table) {
    for (const form of ['direct', 'streaming']) {
      assert.ok(row[form].seconds > 0, `${form} at n = ${row.n}: a positive time, got "${row[form].text}"`);
      const digits = row[form].text.replace(/\D/g, '').replace(/^0+/, '').replace(/0+$/, '');
      assert.ok(digits.length <= 2, `${form} at n = ${row.n}: at most two significant digits, "${row[form].text}"`);
    }
    // The direct form makes three n×n matrices and the n×d output; the streaming form the output alone (float32, d = 64).
    near(row.direct.bytes, (3 * row.n * row.n + row.n * 64) * 4, `direct memory at n = ${row.n}`);
    near(row.streaming.bytes, row.n * 64 * 4, `streaming memory at n = ${row.n}`);
  }
  const at = (n) => table.find((row) => row.n === n);
  for (const form of ['direct', 'streaming']) {
    // n² work: 16 times the size is 256 times the work; the small sizes are mostly overhead, and a
    // busy machine makes single sizes noisy, so the margins are wide.
    assert.ok(at(1024)[form].seconds > 8 * at(64)[form].seconds, `${form}: n = 1,024 against 64`);
    assert.ok(at(256)[form].seconds > 2 * at(16)[form].seconds, `${form}: n = 256 against 16`);
  }
  assert.ok(at(1024).direct.bytes > 40 * at(1024).streaming.bytes, 'the n×m matrices dwarf the output');
  // The slope readouts fit log t against log n over the three largest sizes: the table's own
  // (rounded) times give the same within the rounding.
  const slopes = await view.figure.locator('.measured-slopes output').allInnerTexts();
  ['direct', 'streaming'].forEach((form, i) => {
    const last = table.slice(-3).map((row) => [Math.log(row.n), Math.log(row[form].seconds)]);
    const mean = (k) => last.reduce((sum, p) => sum + p[k], 0) / last.length;
    const fitted = last.reduce((sum, [x, y]) => sum + (x - mean(0)) * (y - mean(1)), 0)
      / last.reduce((sum, [x]) => sum + (x - mean(0)) ** 2, 0);
    const shown = Number(slopes[i].replace('\u2212', '-'));
    assert.ok(Math.abs(shown - fitted) < 0.15, `${form}: slope ${slopes[i]} against ${fitted.toFixed(3)} from the table`);
  });
  // Every size was timed more than once, and shows the spread of its timings: in the table, and
  // as a whisker through each point of the time plot; no point sits on the plot's frame.
  const spreads = await view.figure.locator('.measured-spread').allInnerTexts();
  assert.equal(spreads.length, table.length * 2, 'a spread for every time in the table');
  for (const text of spreads) assert.match(text, /^ ?\(.+\u2013.+, ([2-9]|\d{2,})\u00d7\)$/, `spread "${text}"`);
  const timePlot = view.figure.locator('.plot').first();
  assert.ok(await timePlot.locator('.plot-spread').count() >= table.length * 2, 'a whisker through every point');
  const onFrame = await timePlot.evaluate((plot) => {
    const [bottom] = plot.querySelectorAll('line.plot-axis');
    const [left, right, y] = ['x1', 'x2', 'y1'].map((a) => Number(bottom.getAttribute(a)));
    // The measured points (the slope-2 line's ends are cut to the frame on purpose).
    return [...plot.querySelectorAll('circle.plot-point.plot-series-0, circle.plot-point.plot-series-1')].filter((dot) => {
      const cx = Number(dot.getAttribute('cx'));
      const cy = Number(dot.getAttribute('cy'));
      return cx < left + 4 || cx > right - 4 || cy > y - 4;
    }).length;
  });
  assert.equal(onFrame, 0, 'no point on the plot frame');
  await checkMainThread(t, page);
  assert.deepEqual(problems, []);
});

test('the settings round-trip through the URL; run=1 runs by itself in the iframe embed, also from the dist build', async () => {
  const { page, problems } = await session.openPage();
  const view = measuredFigure(page);
  await view.width.selectOption('32');
  await view.precision.selectOption('float64');
  await view.largest.selectOption('256');
  await page.waitForFunction(() => /measured\.d=32/.test(location.search) && /measured\.nmax=256/.test(location.search));
  const search = await page.evaluate(() => location.search);
  assert.match(search, /measured\.precision=float64/);
  assert.doesNotMatch(search, /measured\.run/, 'pressing nothing writes no run=1');
  const again = await session.openPage({ search });
  const reopened = measuredFigure(again.page);
  assert.deepEqual([await reopened.width.inputValue(), await reopened.precision.inputValue(), await reopened.largest.inputValue()],
    ['32', 'float64', '256']);
  assert.match(await reopened.where.innerText(), /at d = 32 in float64, n = 8, 16, … 256: both forms at every size/);

  // The embed at a link that asks for the run, float64: it starts by itself. (axe is injected
  // as an inline script, which the CSP would refuse: bypassed here; the dist run below has it.)
  const embed = await session.openPage({
    search: 'embed.html?figure=measured&run=1&nmax=64&precision=float64', contextOptions: { ...DESKTOP, colorScheme: 'dark', bypassCSP: true },
  });
  const embedded = measuredFigure(embed.page);
  await finished(embedded);
  await embed.page.addScriptTag({ content: axeSource });
  const violations = await embed.page.evaluate(async () => (await window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  })).violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`));
  assert.deepEqual(violations, [], 'no axe violations once the plots, the table and the notes are drawn');
  assert.match(await embedded.where.innerText(), /^Timed in a Web Worker/);
  const rows = await readTable(embedded);
  near(rows.at(-1).streaming.bytes, 64 * 64 * 8, 'float64 output: 8 bytes a number');
  // The link's run=1 is still read, and the address bar spells it as links now do.
  assert.match(await embed.page.evaluate(() => location.search), /run=on/, 'the embed keeps its link');

  // The dist build: hashed names, the Worker's among them, under the page's own CSP.
  distDir = await mkdtemp(join(process.env.TMPDIR ?? tmpdir(), 'attention-lab-measured-dist-'));
  const { renamed } = await buildDist({ from: WEB_ROOT, out: distDir });
  assert.match(renamed.get('measured-worker.js'), /^measured-worker\.[0-9a-f]{10}\.js$/);
  distServer = await startServer({ root: distDir, port: 0, csp: true });
  const context = await session.browser.newContext(DESKTOP);
  const distPage = await context.newPage();
  const distProblems = [];
  distPage.on('console', (message) => { if (message.type() === 'error') distProblems.push(message.text()); });
  distPage.on('response', (response) => { if (response.status() >= 400) distProblems.push(`HTTP ${response.status()}: ${response.url()}`); });
  await distPage.goto(`${distServer.url}embed.html?figure=measured&run=1&nmax=64`);
  const fromDist = measuredFigure(distPage);
  await finished(fromDist);
  assert.match(await fromDist.where.innerText(), /^Timed in a Web Worker/);
  await context.close();
  assert.deepEqual(distProblems, []);
  assert.deepEqual([...problems, ...again.problems, ...embed.problems], []);
});

test('as an element on a course page it times on the main thread in slices, says so, and keeps input free', async (t) => {
  const { page, context, problems } = await openHost(session,
    '<script src="attention-figure.js"></script><attention-figure name="measured" nmax="512"></attention-figure>');
  await elementsReady(page);
  const view = measuredFigure(page.locator('attention-figure'));
  await watchMainThread(page);
  await view.run.click();
  await finished(view);
  assert.match(await view.where.innerText(), /^Timed on this page’s own thread, in slices of at most 8 ms, because this element cannot start a Web Worker/);
  const table = await readTable(view);
  assert.ok(table.every((row) => row.streaming.seconds > 0), 'the streaming form reaches every size, over blocks of queries');
  assert.ok(table[0].direct.seconds > 0, 'the direct form runs where a call fits in a slice');
  // The list of stops is shown only when a form stopped: on a fast machine every direct call
  // up to n = 512 may fit in a slice.
  if (table.some((row) => row.direct.seconds === null)) {
    assert.match(await view.stops.innerText(), /The direct form stopped before n = [\d\u2009]+: on this page’s own thread one call must fit in a slice/);
  } else {
    assert.equal(await view.stops.count(), 0, 'no list of stops when no form stopped');
  }
  await checkMainThread(t, page);
  assert.deepEqual(problems, []);
  await context.close();
});
