// The learn figure while it trains, for scripts/bench-page.mjs (--learn-only measures just
// this): steps in the embed's first 5 s at d_k = 256, and τ key presses on the page idle and
// while the figure trains on screen, with the long tasks meanwhile.

import { joined, openPage, pressAll, round, summary } from './bench-page-probe.mjs';

/** Reads the learn figure's step counter (thin spaces between thousands). */
const learnSteps = (root) => root.getByLabel('steps taken').innerText().then((t) => Number(t.replaceAll('\u2009', '')));

/**
 * The learn figure while it trains: steps in the embed in the first 5 s after Start at d_k = 256
 * (and where it trained), then on the page, τ key presses with the learn figure on screen, idle
 * and while it trains, and the long tasks while it trains.
 */
export async function measureLearn(browser, serverUrl, events) {
  const embed = await openPage(browser, new URL('embed.html?figure=learn&dk=256', serverUrl).href, 1, { embed: true });
  const inWorker = embed.page.workers().some((worker) => /learn-worker/.test(worker.url()));
  const started = await embed.page.evaluate(() => performance.now());
  await embed.page.getByRole('button', { name: 'Start', exact: true }).click();
  const stepsAt = [];
  for (const seconds of [1, 2, 3, 4, 5]) {
    await embed.page.waitForFunction((at) => performance.now() >= at, started + seconds * 1000, { polling: 20 });
    stepsAt.push(await learnSteps(embed.page));
  }
  const embedProbe = await embed.page.evaluate(() => window.benchProbe);
  await embed.context.close();
  const embedLong = embedProbe.longTasks.filter((task) => task.start > started);

  // The page at d_k = 512 with a small rate, so that a run lasts through every press.
  const { page, context } = await openPage(browser, new URL('index.html?learn.dk=512&learn.lr=0.05', serverUrl).href);
  const learn = page.locator('#figure-learn');
  const tau = page.locator('#figure-temperature').getByLabel('temperature \u03c4', { exact: true });
  // The learn figure on screen (so it draws), the τ slider focused without scrolling to it.
  await learn.locator('.learn-plots').scrollIntoViewIfNeeded();
  await tau.evaluate((node) => node.focus({ preventScroll: true }));
  const count = Math.min(events, 300);
  const keys = Array.from({ length: count }, (_, i) => (Math.floor(i / 10) % 2 ? 'ArrowLeft' : 'ArrowRight'));
  await page.waitForTimeout(300);
  const idleFrom = await page.evaluate(() => performance.now());
  const idle = await pressAll(page, keys);
  const idleTo = await page.evaluate(() => performance.now());
  const playButton = learn.locator('.learn-primary');
  const trainingFrom = await page.evaluate(() => performance.now());
  await playButton.evaluate((button) => button.click()); // Start, leaving the focus on τ
  await page.waitForTimeout(300);
  const trainingRuns = [];
  for (let i = 0; i < keys.length; i += 20) {
    if ((await playButton.innerText()) === 'Start') await playButton.evaluate((button) => button.click());
    trainingRuns.push(await pressAll(page, keys.slice(i, i + 20)));
  }
  const trainedSteps = await learnSteps(learn);
  const trainingTo = await page.evaluate(() => performance.now());
  await playButton.evaluate((button) => button.click()); // Pause
  const probe = await page.evaluate(() => window.benchProbe);
  await context.close();
  const during = probe.longTasks.filter((task) => task.start >= trainingFrom && task.start <= trainingTo);
  // The same count over the idle presses: on a shared machine some long tasks are the machine's.
  const idleLong = probe.longTasks.filter((task) => task.start >= idleFrom && task.start <= idleTo);
  const idleSummary = summary(idle);
  const trainingSummary = summary(joined(trainingRuns));
  return {
    embed: { dk: 256, where: inWorker ? 'worker' : 'page', stepsAtSeconds: stepsAt, stepsIn5s: stepsAt[4],
      longTasks: embedLong.length, longestTaskMs: round(Math.max(0, ...embedLong.map((t) => t.duration))) },
    page: {
      dk: 512, learnStepsWhilePressing: trainedSteps,
      idle: idleSummary, training: trainingSummary,
      workRatio: round(trainingSummary.workMedianMs / idleSummary.workMedianMs, 2),
      longTasksWhileIdle: idleLong.length,
      longestTaskWhileIdleMs: round(Math.max(0, ...idleLong.map((t) => t.duration))),
      longTasksWhileTraining: during.length,
      longestTaskWhileTrainingMs: round(Math.max(0, ...during.map((t) => t.duration))),
    },
  };
}

export function learnMarkdown(learn) {
  const e = learn.embed;
  const p = learn.page;
  const met = (ok) => (ok ? 'met' : 'missed');
  return [
    '', '### Watch it learn, while it trains',
    '',
    `In the embed at d_k = ${e.dk} (training in ${e.where === 'worker' ? 'its Web Worker' : 'slices on the page'}): `
      + `${e.stepsAtSeconds.map((n, i) => `${n} steps at ${i + 1} s`).join(', ')}; `
      + `${e.longTasks} long tasks (longest ${e.longestTaskMs} ms). Budget ≥ 2,500 steps in 5 s: ${met(e.stepsIn5s >= 2500)}.`,
    '',
    `On the page, the learn figure on screen at d_k = ${p.dk} (${p.learnStepsWhilePressing} steps while the keys were pressed), τ key presses:`,
    '',
    '| τ key presses | next frame, median | p95 | work, median | p95 |',
    '| --- | --- | --- | --- | --- |',
    `| learn figure idle (${p.idle.events}) | ${p.idle.medianMs} ms | ${p.idle.p95Ms} ms | ${p.idle.workMedianMs} ms | ${p.idle.workP95Ms} ms |`,
    `| learn figure training (${p.training.events}) | ${p.training.medianMs} ms | ${p.training.p95Ms} ms | ${p.training.workMedianMs} ms | ${p.training.workP95Ms} ms |`,
    '',
    `Work while training ÷ idle (medians): ${p.workRatio}× (budget ≤ 1.2×: ${met(p.workRatio <= 1.2)}). `
      + `Long tasks (> 50 ms) while training: ${p.longTasksWhileTraining}, longest ${p.longestTaskWhileTrainingMs} ms `
      + `(budget none: ${met(p.longTasksWhileTraining === 0)}); over the same presses idle: ${p.longTasksWhileIdle}, `
      + `longest ${p.longestTaskWhileIdleMs} ms.`,
  ].join('\n');
}
