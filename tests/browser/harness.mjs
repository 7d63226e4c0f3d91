// Shared set-up for the browser tests: serves build/web under the page's real
// Content-Security-Policy, drives Debian's Chromium through playwright-core, and records
// every console error, uncaught exception and failed request of each page it opens.
//
// Usage in a test file:
//   const session = useBrowser();            // registers before/after hooks
//   const { page, problems } = await session.openPage({ search: '?tau=2' });

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// AL_WEB_ROOT lets several builds of the page be tested side by side (e.g. build/web-roles).
export const WEB_ROOT = process.env.AL_WEB_ROOT ? resolve(process.env.AL_WEB_ROOT) : join(ROOT, 'build/web');

export const DESKTOP = { viewport: { width: 1280, height: 900 } };
export const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export function useBrowser() {
  const session = { url: null, browser: null };
  let server = null;
  let chromium = null;
  const contexts = [];
  // Pages a test opens close when it ends: an open page keeps its figures, timers and frames
  // alive and takes the machine from the tests after it. Pages opened by a before hook serve
  // every test of the file and close with the browser.
  let testContexts = null;
  // A page openPage made is not closed when its test ends or closes it, but made blank and
  // kept for the next openPage with the same context options, unless the test changed what a
  // new navigation does not undo (see trackChanges). A new context costs a renderer process
  // and a cold cache: reusing them cut a run of eight figure files from 258 to 203 CPU-seconds.
  // AL_NO_REUSE=1 turns this off; AL_HARNESS_DEBUG=1 says of each page whether it was kept.
  const spare = new Map(); // JSON of the context options → { context, page }, or null while one is made blank
  const reusable = new WeakMap(); // context → { key, page, listeners, close(), changed(), forget() }
  const closeOf = new WeakMap(); // context → its own close(), which openPage's contexts replace

  /** Ends a test's use of `context`: keeps it blank for another test, or closes it. */
  async function retire(context) {
    const reuse = reusable.get(context);
    reusable.delete(context);
    const changed = reuse?.changed();
    if (process.env.AL_HARNESS_DEBUG && reuse) console.error(`harness: ${changed ? `changed (${changed})` : 'clean'}`);
    if (reuse && !changed && !spare.has(reuse.key) && !reuse.page.isClosed() && !process.env.AL_NO_REUSE) {
      spare.set(reuse.key, null);
      try {
        reuse.forget(); // the listeners the test added
        for (const [event, listener] of Object.entries(reuse.listeners)) reuse.page.off(event, listener);
        await reuse.page.goto('about:blank');
        spare.set(reuse.key, { context, page: reuse.page });
        return;
      } catch {
        spare.delete(reuse.key);
      }
    }
    await reuse?.close().catch(() => {});
  }

  beforeEach(() => { testContexts = []; });
  afterEach(async () => {
    const ending = testContexts ?? [];
    testContexts = null;
    await Promise.all(ending.map((context) => {
      if (reusable.has(context)) return retire(context);
      if (closeOf.has(context)) return null; // retired already, when its test closed it
      return context.close().catch(() => {});
    }));
  });

  before(async () => {
    if (!existsSync(join(WEB_ROOT, 'index.html'))) {
      throw new Error(`${WEB_ROOT} has no index.html: run "node scripts/build-web.mjs" first`);
    }
    server = await startServer({ root: WEB_ROOT, port: 0, csp: true });
    session.url = server.url;
    chromium = await launchChromium();
    session.browser = chromium.browser;
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    for (const kept of spare.values()) await kept?.context.close().catch(() => {});
    spare.clear();
    await chromium?.close();
    await server?.close();
  });

  /**
   * A browser context that closes when the test that made it ends (see afterEach above), or
   * with { keep: true } when the file's tests end, for a page several tests share.
   */
  session.newContext = async (contextOptions, { keep = false } = {}) => {
    const context = await session.browser.newContext(contextOptions);
    (keep ? contexts : testContexts ?? contexts).push(context);
    return context;
  };

  /**
   * Opens the page in a fresh context and waits until every figure has mounted.
   * contextOptions go to browser.newContext (viewport, colorScheme, bypassCSP, …); keep: the
   * page outlives the test that opened it, for the file's other tests.
   * Returns { page, context, problems }: problems lists console errors, page errors and
   * failed requests seen so far (the array keeps filling while the page lives).
   */
  session.openPage = async ({ search = '', contextOptions = DESKTOP, keep = false } = {}) => {
    const key = JSON.stringify(contextOptions);
    const kept = keep ? null : spare.get(key);
    let context;
    let page;
    if (kept) {
      spare.delete(key);
      ({ context, page } = kept);
      await page.mouse.move(0, 0); // as a new page's pointer: hovering nothing
      testContexts?.push(context);
    } else {
      context = await session.newContext(contextOptions, { keep });
      page = await context.newPage();
    }
    const problems = [];
    const listeners = {
      console: (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      },
      pageerror: (error) => problems.push(`page error: ${error.message}`),
      requestfailed: (request) => {
        // A request the page itself cancelled by navigating away (say, the favicon of a page
        // the test reloads at once) is not a failure; a refused, blocked or missing one is.
        const reason = request.failure()?.errorText;
        if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${reason}`);
      },
      // The page must load nothing from another origin (no CDN fonts, scripts or data).
      request: (request) => {
        const url = request.url();
        if (!url.startsWith(session.url) && !url.startsWith('data:') && url !== 'about:blank') {
          problems.push(`request to another origin: ${url}`);
        }
      },
      response: (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      },
    };
    for (const [event, listener] of Object.entries(listeners)) page.on(event, listener);
    if (!keep) {
      if (!closeOf.has(context)) {
        const close = context.close.bind(context);
        closeOf.set(context, close);
        // A test that closes the page's context is done with it: retire it now.
        context.close = () => (reusable.has(context) ? retire(context) : close());
      }
      reusable.set(context, { key, page, listeners, close: closeOf.get(context), ...trackChanges(context, page) });
    }
    await page.goto(new URL(search, session.url).href);
    await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
    // Figures off screen skip rendering (content-visibility: auto) until a reader nears them,
    // and skipped content has no innerText or boxes. The tests read every figure wherever it
    // is, so they render all of them, as a reader scrolling to each would see it;
    // mount-order.test.mjs checks the skipping itself.
    await renderAllFigures(page);
    return { page, context, problems };
  };

  return session;
}

// What a test may change about a page or its context that a new navigation does not undo: a
// context or page so changed is closed when its test ends instead of kept for the next test.
const PAGE_CHANGES = ['addInitScript', 'exposeFunction', 'exposeBinding', 'route', 'routeFromHAR', 'setViewportSize',
  'emulateMedia', 'setExtraHTTPHeaders'];
const CONTEXT_CHANGES = ['addInitScript', 'exposeFunction', 'exposeBinding', 'route', 'routeFromHAR', 'newCDPSession',
  'grantPermissions', 'clearPermissions', 'setOffline', 'setExtraHTTPHeaders', 'setGeolocation', 'newPage',
  'addCookies', 'clearCookies'];

/**
 * Starts watching `context` and `page` for the calls above and for keys or buttons left
 * pressed. Returns { changed() (what was changed, or false), forget() (removes the listeners
 * added to either since) }. The harness adds its own listeners before this is called.
 */
function trackChanges(context, page) {
  let changed = false;
  const watch = (target, names) => {
    for (const name of names) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      target[name] = function watched(...args) {
        changed = changed || name;
        return original.apply(this, args);
      };
    }
  };
  watch(page, PAGE_CHANGES);
  watch(context, CONTEXT_CHANGES);
  watch(page.keyboard, ['down']);
  watch(page.mouse, ['down']);
  const snapshot = (emitter) => new Map(emitter.eventNames().map((event) => [event, new Set(emitter.listeners(event))]));
  const before = [[page, snapshot(page)], [context, snapshot(context)]];
  return {
    changed: () => changed || (context.pages().length !== 1 && 'another page'),
    forget: () => {
      for (const [emitter, had] of before) {
        for (const event of emitter.eventNames()) {
          for (const listener of emitter.listeners(event)) if (!had.get(event)?.has(listener)) emitter.off(event, listener);
        }
      }
    },
  };
}

/** Renders every figure of the page now (see openPage), as a reader scrolling to each would see it. */
export async function renderAllFigures(page) {
  await page.evaluate(() => {
    for (const part of document.querySelectorAll('main > section, main .figure, main .skips-off-screen, main .skips-off-screen-stacked')) part.style.contentVisibility = 'visible';
  });
  // A chart lays itself out for its width when it is first rendered, in that frame's
  // ResizeObserver step (lib/charts/fit.js): wait for it.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Scrolls a figure (or a part of one) into view, as a reader would, and waits until the browser has rendered it. */
export async function scrollToFigure(page, selector) {
  // The browser's own scrolling, as a link to the figure would: Playwright's
  // scrollIntoViewIfNeeded waits for a box, which a figure in a section not yet rendered lacks.
  await page.locator(selector).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.waitForFunction((s) => document.querySelector(s).innerText.trim().length > 0, selector);
}

/** Parses the number ending an accessible name such as "“cat” (1): 0.7340" or "…: 3.10e−7". */
export function trailingNumber(text) {
  const match = /(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/.exec(text.replaceAll('\u2212', '-'));
  if (!match) throw new Error(`no number at the end of "${text}"`);
  return Number(match[1]);
}

/**
 * True when a heat map (its svg, as a locator) fits a screen `screenWidth` px wide, or, when its
 * printed values need more room than the screen has at the 11 px floor, scrolls inside its own
 * frame, which is then a named tab stop.
 */
export async function fitsOrScrollsInItsFrame(grid, screenWidth) {
  // A map sizes itself for its width after a ResizeObserver report (fit.js): a check made right
  // after a change that reshapes it (another role's map) waits up to 3 s, frame by frame, for
  // that fit. Under a loaded machine the report can come a few frames late.
  return grid.evaluate(async (svg, width) => {
    const fits = () => {
      const box = svg.getBoundingClientRect();
      const frame = svg.closest('.heatmap-frame').getBoundingClientRect();
      const region = svg.closest('[role=region]');
      return (box.x >= 0 && box.right <= width)
        || (frame.x >= 0 && frame.right <= width && region?.getAttribute('tabindex') === '0' && /scrolls sideways/.test(region.getAttribute('aria-label')));
    };
    const until = performance.now() + 3000;
    while (!fits() && performance.now() < until) await new Promise((resolve) => { requestAnimationFrame(resolve); });
    return fits();
  }, screenWidth);
}
