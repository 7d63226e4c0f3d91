// The "Watch it learn" figure, checked through what a learner sees: at d_k = 256 from seed 1
// the scaled copy's loss falls far below the unscaled copy's, the step counter advances, Pause
// stops the work, Reset returns to the same initial loss, and a link (embed, page or element)
// replays the same run to the same numbers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();
// At η = 1 (the figure's default is 0.5) the scaled copy is below 0.05 by step 260 and at 0.037
// at step 300, while the unscaled copy stays near 0.67 (measured with the core, native and wasm).
const EMBED = 'embed.html?figure=learn&dk=256&seed=1&lr=1';
const STEPS = 300;

function learnView(root) {
  const number = async (locator) => Number((await locator.innerText()).replaceAll('\u2009', '').replace('\u2212', '-'));
  const view = {
    start: root.getByRole('button', { name: /^(Start|Pause)$/ }),
    step: root.getByRole('button', { name: 'Step', exact: true }),
    reset: root.getByRole('button', { name: 'Reset', exact: true }),
    newSeed: root.getByRole('button', { name: 'New seed', exact: true }),
    counter: root.getByLabel('steps taken'),
    scaledLoss: root.getByLabel('scaled copy: loss', { exact: true }),
    unscaledLoss: root.getByLabel('unscaled copy: loss', { exact: true }),
    scaledSpread: root.getByLabel('scaled copy: mean p(1\u2212p)', { exact: true }),
    unscaledSpread: root.getByLabel('unscaled copy: mean p(1\u2212p)', { exact: true }),
    steps: () => number(view.counter),
    losses: async () => ({ scaled: await number(view.scaledLoss), unscaled: await number(view.unscaledLoss) }),
  };
  return view;
}

// A count as the page prints it: thin spaces between thousands.
const spaced = (n) => n.toLocaleString('en-US').replaceAll(',', '\u2009');

async function waitForSteps(page, view, atLeast, timeout = 120_000) {
  const handle = await view.counter.elementHandle();
  await page.waitForFunction(
    ({ node, n }) => Number(node.textContent.replaceAll('\u2009', '')) >= n, { node: handle, n: atLeast }, { timeout, polling: 100 });
}

test('d_k = 256, seed 1, η = 1: the scaled copy learns, the unscaled one stays stuck; pause stops, reset returns', async () => {
  const { page, problems } = await session.openPage({ search: EMBED });
  const view = learnView(page);
  assert.equal(await view.steps(), 0);
  const initial = await view.losses();
  assert.ok(initial.scaled > 0.5 && initial.unscaled > 0.5, `initial losses ${JSON.stringify(initial)}`);
  // At the start the unscaled softmax is saturated: p(1 − p) several times smaller.
  assert.ok(Number(await view.scaledSpread.innerText()) > 5 * Number(await view.unscaledSpread.innerText()));

  // It trains in a Web Worker, not on the page's thread.
  assert.ok(page.workers().some((worker) => /learn-worker\.js$/.test(worker.url())), 'a learn Worker runs');

  // Start and Pause by keyboard.
  await view.start.focus();
  await page.keyboard.press('Enter');
  await waitForSteps(page, view, STEPS);
  await page.keyboard.press('Enter');
  assert.equal(await view.start.innerText(), 'Start');
  // The Worker's last slice arrives just after the press: the link then carries the step reached.
  await page.waitForFunction(() => /steps=\d/.test(location.search), null, { timeout: 5000 });
  const paused = await view.steps();
  assert.ok(paused >= STEPS, `counter ${paused}`);
  const after = await view.losses();
  assert.ok(after.scaled < 0.05, `scaled loss after ${paused} steps: ${after.scaled}`);
  assert.ok(after.unscaled > 0.5, `unscaled loss after ${paused} steps: ${after.unscaled}`);
  assert.ok(after.scaled < after.unscaled / 10);

  // Paused means paused: nothing moves, and the main thread is idle.
  await page.waitForTimeout(600);
  assert.equal(await view.steps(), paused);
  assert.deepEqual(await view.losses(), after);

  // The link now carries the step reached; Step takes exactly one more.
  await page.waitForFunction((n) => location.search.includes(`steps=${n}`), paused, { timeout: 5000 });
  await view.step.click();
  await waitForSteps(page, view, paused + 1, 5000);
  assert.equal(await view.steps(), paused + 1);

  // Reset: the same start, not a new draw.
  await view.reset.click();
  assert.equal(await view.steps(), 0);
  assert.deepEqual(await view.losses(), initial);
  await page.waitForFunction(() => !location.search.includes('steps='), null, { timeout: 5000 });

  // The table alternative holds the same numbers as the readouts.
  // The table is filled when it opens (its toggle event, a task after the click).
  await page.getByText('The curves as a table').click();
  const firstRow = page.getByRole('table').locator('tbody').getByRole('row').first();
  await firstRow.waitFor();
  assert.match(await firstRow.innerText(), new RegExp(`^0\\s+${String(initial.scaled).replace('.', '\\.')}`));

  // New seed: a new start, and its seed in the link.
  await view.newSeed.click();
  await page.waitForFunction(() => location.search.includes('seed=2'));
  assert.notDeepEqual(await view.losses(), initial);
  assert.deepEqual(problems, []);
});

test('a link replays the same run: embed, page and element give the same numbers at the same step', async () => {
  const embed = await session.openPage({ search: 'embed.html?figure=learn&dk=16&task=match&lr=1&steps=120' });
  const embedView = learnView(embed.page);
  await waitForSteps(embed.page, embedView, 120);
  await embed.page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Start'));
  assert.equal(await embedView.steps(), 120, 'the replay stops at the step of the link');
  const expected = await embedView.losses();

  const page = await session.openPage({ search: '?learn.dk=16&learn.task=match&learn.lr=1&learn.steps=120' });
  const figure = page.page.locator('#figure-learn');
  const pageView = learnView(figure);
  await waitForSteps(page.page, pageView, 120);
  await page.page.waitForFunction(() => document.querySelector('#figure-learn .learn-primary').textContent === 'Start');
  assert.deepEqual(await pageView.losses(), expected);

  // The element, on the same origin: settings as attributes.
  await page.page.evaluate(() => new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'attention-figure.js';
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  }));
  await page.page.evaluate(() => {
    const element = document.createElement('attention-figure');
    for (const [name, value] of [['name', 'learn'], ['dk', '16'], ['task', 'match'], ['lr', '1'], ['steps', '120']]) element.setAttribute(name, value);
    document.body.append(element);
  });
  const element = page.page.locator('attention-figure[name="learn"]');
  const elementView = learnView(element);
  await waitForSteps(page.page, elementView, 120);
  await page.page.waitForFunction(() => document.querySelector('attention-figure').shadowRoot.querySelector('.learn-primary').textContent === 'Start');
  assert.deepEqual(await elementView.losses(), expected);
  assert.deepEqual(embed.problems, []);
  assert.deepEqual(page.problems, []);
});

test('on a phone the figure fits the width and still trains', async () => {
  const { page, problems } = await session.openPage({ search: 'embed.html?figure=learn&dk=4', contextOptions: PHONE });
  const view = learnView(page);
  await view.start.tap();
  await waitForSteps(page, view, 30);
  await view.start.tap();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  assert.deepEqual(problems, []);
});

test('Start at d_k = 256 says at which step the scaled copy reached the target, and that the unscaled one did not', async () => {
  // The step the core's own records give, computed here with the same session settings.
  const { loadLab } = await import('../js/load-lab.mjs');
  const lab = await loadLab();
  const reference = lab.createTraining({ dk: 256, seed: 1, tokens: 8, precision: 'float32' }); // as the figure trains
  const scaled = [];
  const unscaled = [];
  for (let piece = 0; piece < 10; piece++) { // 3,000 steps in pieces, as one call's work is capped
    const out = reference.train(300);
    scaled.push(...out.scaled.loss);
    unscaled.push(...out.unscaled.loss);
  }
  reference.dispose();
  const reachedAt = scaled.findIndex((loss) => loss < 0.05);
  assert.ok(reachedAt > 0, `the scaled copy reaches 0.05 within 3,000 steps (${reachedAt})`);
  const unscaledBy = unscaled.slice(0, reachedAt + 1).findIndex((loss) => loss < 0.05);
  assert.equal(unscaledBy, -1, 'the unscaled copy has not reached it by then');

  const { page, problems } = await session.openPage({ search: 'embed.html?figure=learn&dk=256&seed=1' });
  const view = learnView(page);
  const status = page.locator('.learn-status');
  await view.start.click();
  // Training in float32 in a Worker is fast: the run may already have stopped at the page's
  // step limit when the status is read, so either standing is accepted, each naming the step.
  const said = `Scaled copy reached loss < 0.05 at step ${spaced(reachedAt)}; unscaled copy not`;
  await page.waitForFunction((text) => [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent.includes(text)),
    said, { timeout: 120_000, polling: 100 });
  // Each copy's own line says the same, at its next redraw (at most 15 a second).
  await page.waitForFunction((text) => document.querySelector('.learn-target')?.textContent.includes(text),
    `reached loss < 0.05 at step ${spaced(reachedAt)}`, { timeout: 5000 });
  assert.match(await page.locator('.learn-target').nth(1).innerText(), /not reached/);
  // The loss chart lists the target as a line of its own.
  assert.ok(await page.getByText('target: loss 0.05').count() >= 1);
  // Paused (or stopped at the limit): the status names the step the counter shows, and the run's standing.
  if ((await view.start.innerText()) === 'Pause') await view.start.click();
  await page.waitForFunction(() => /steps=\d/.test(location.search), null, { timeout: 5000 });
  const steps = await view.steps();
  await page.waitForFunction((n) => /^(Step|Stopped: the page's limit of) /.test(document.querySelector('[role="status"].learn-status').textContent)
    && document.querySelector('[role="status"].learn-status').textContent.includes(`not by step ${n}`), spaced(steps), { timeout: 5000 });
  assert.match(await status.innerText(), /; unscaled copy not by step \d/);
  assert.deepEqual(problems, []);
});

test('where no Worker may start (a policy without worker-src), the figure trains on the page, to the same numbers', async () => {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The embed's document served with a policy that forbids Workers, beside the page's own.
  await page.route('**/embed.html*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "worker-src 'none'" } });
  });
  const search = 'embed.html?figure=learn&dk=16&task=match&lr=1&steps=120';
  await page.goto(new URL(search, session.url).href);
  const view = learnView(page);
  await waitForSteps(page, view, 120);
  await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Start'));
  assert.equal(await view.steps(), 120);
  assert.equal(page.workers().filter((worker) => /learn-worker/.test(worker.url())).length, 0, 'no learn Worker runs');

  // The same numbers as in the Worker.
  const inWorker = await session.openPage({ search });
  const workerView = learnView(inWorker.page);
  await waitForSteps(inWorker.page, workerView, 120);
  await inWorker.page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Start'));
  assert.ok(inWorker.page.workers().some((worker) => /learn-worker\.js$/.test(worker.url())));
  assert.deepEqual(await view.losses(), await workerView.losses());
  assert.deepEqual(errors, []);
  assert.deepEqual(inWorker.problems, []);
  await context.close();
});
