// What scripts/bench-page.mjs measures a page with: a probe installed before the page's own
// scripts (frame latency and main-thread work per key press, long tasks, figure mounts), the
// page opened with it (optionally on a throttled CPU), key presses one frame each, and their
// summary (median and p95).

export const DESKTOP = { viewport: { width: 1280, height: 900 } };
export const PHONE = { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// Installed before the page's own scripts: frame latency per key press, long tasks, mounts.
export function instrument() {
  const probe = { latencies: [], longTasks: [], mounts: [], ready: null };
  window.benchProbe = probe;
  // Per key press, two numbers:
  //   latency  from the press (its event time) to the first moment after the next frame was
  //            produced: a rAF callback runs just before the frame's style, layout and paint, and
  //            a message posted from it is handled after them. This includes the wait for the
  //            display's next frame (60 Hz here), which the page does not control.
  //   work     the part the page does control: the press's wait to be handled, the handlers (up
  //            to the last keydown/input/change listener, on window in the bubbling phase, so
  //            after the figures' own), and that frame's rAF callbacks, style, layout and paint.
  probe.work = [];
  probe.handling = []; // of work: from the press to the last handler's end
  probe.rendering = []; // of work: from the frame's rAF callbacks to the frame's end
  let current = null;
  document.addEventListener('keydown', (event) => {
    const press = { pressed: event.timeStamp, handled: performance.now(), frame: 0 };
    current = press;
    requestAnimationFrame(() => {
      press.frame = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const done = performance.now();
        probe.latencies.push(done - press.pressed);
        probe.work.push(Math.min(done - press.pressed, (press.handled - press.pressed) + (done - press.frame)));
        probe.handling.push(press.handled - press.pressed);
        probe.rendering.push(done - press.frame);
      };
      channel.port2.postMessage(null);
    });
  }, true);
  for (const type of ['keydown', 'input', 'change']) {
    window.addEventListener(type, () => { if (current) current.handled = performance.now(); });
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'attention-lab:figure-mounted') probe.mounts.push({ name: entry.detail, at: entry.startTime });
      if (entry.name === 'attention-lab:all-mounted') probe.ready = entry.startTime;
    }
  }).observe({ type: 'mark', buffered: true });
  probe.mountTimes = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.startsWith('attention-lab:mount ')) probe.mountTimes[entry.name.slice(20)] = entry.duration;
    }
  }).observe({ type: 'measure', buffered: true });
}

const quantile = (values, q) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
export const round = (x, digits = 1) => (x === null ? null : Number(x.toFixed(digits)));

async function throttle(context, page, cpuSlowdown) {
  if (cpuSlowdown <= 1) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
}

export async function openPage(browser, url, cpuSlowdown = 1, { embed = false, contextOptions = DESKTOP } = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await page.addInitScript(instrument);
  await throttle(context, page, cpuSlowdown);
  await page.goto(url);
  if (embed) await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 120000 });
  else await page.waitForFunction(() => window.benchProbe.ready !== null, null, { timeout: 120000 });
  return { page, context };
}

/**
 * The empty page every row of presses is set beside: one bare range input that writes its
 * value, probed, with the focus on it. Options as openPage's.
 */
export async function openEmptyPage(browser, cpuSlowdown = 1, { contextOptions = DESKTOP } = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await throttle(context, page, cpuSlowdown);
  await page.setContent('<input type="range" id="r" aria-label="r" min="0" max="100" value="50"><output id="o"></output>'
    + '<script>r.addEventListener("input", () => { o.textContent = r.value; });</script>');
  await page.evaluate(instrument); // an init script does not run for setContent's page
  await page.focus('#r');
  return { page, context };
}

/**
 * Keys for a slider that go `run` steps right, then `run` back, and so on: each call of the
 * returned function gives the next `per` of them.
 */
export function backAndForth(run, per) {
  let sent = 0;
  return () => Array.from({ length: per }, () => (Math.floor(sent++ / run) % 2 === 0 ? 'ArrowRight' : 'ArrowLeft'));
}

/**
 * Presses `keys` in turn on the focused control, one frame each; returns
 * { latencies, work } (ms), one entry per press.
 */
export async function pressAll(page, keys) {
  const before = await page.evaluate(() => window.benchProbe.latencies.length);
  for (const key of keys) {
    const count = await page.evaluate(() => window.benchProbe.latencies.length);
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.benchProbe.latencies.length > n, count, { polling: 'raf' });
  }
  return page.evaluate((n) => ({
    latencies: window.benchProbe.latencies.slice(n),
    work: window.benchProbe.work.slice(n),
    handling: window.benchProbe.handling.slice(n),
    rendering: window.benchProbe.rendering.slice(n),
  }), before);
}

// Presses of several pressAll() calls, as one.
export const joined = (runs) => ({
  latencies: runs.flatMap((r) => r.latencies),
  work: runs.flatMap((r) => r.work),
  handling: runs.flatMap((r) => r.handling),
  rendering: runs.flatMap((r) => r.rendering),
});

export function summary({ latencies, work, handling = [], rendering = [] }) {
  return {
    events: latencies.length,
    medianMs: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
    workMedianMs: round(quantile(work, 0.5)),
    workP95Ms: round(quantile(work, 0.95)),
    handlingMedianMs: round(quantile(handling, 0.5)),
    renderingMedianMs: round(quantile(rendering, 0.5)),
  };
}
