#!/usr/bin/env node
// Full-page screenshots of the built page, for looking at it: desktop (1280 px) and phone
// (375 px, deviceScaleFactor 2), each in the light and the dark colour scheme.
// Writes build/screenshots/page-{desktop,phone}-{light,dark}.png.
//
// Usage: node scripts/screenshots.mjs [--search "?tau=0.1"] [--out build/screenshots]

import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

const VIEWS = {
  desktop: { viewport: { width: 1280, height: 900 } },
  phone: { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

const { values } = parseArgs({
  options: {
    search: { type: 'string', default: '' },
    out: { type: 'string', default: join(ROOT, 'build/screenshots') },
    root: { type: 'string', default: join(ROOT, 'build/web') },
  },
});

await mkdir(values.out, { recursive: true });
const server = await startServer({ root: values.root, port: 0, csp: true });
const chromium = await launchChromium();
let failed = false;
try {
  for (const [name, options] of Object.entries(VIEWS)) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await chromium.browser.newContext({ ...options, colorScheme });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && console.error(`[${name} ${colorScheme}] ${m.text()}`));
      page.on('pageerror', (e) => { failed = true; console.error(`[${name} ${colorScheme}] ${e.message}`); });
      await page.goto(new URL(values.search, server.url).href);
      await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
      const path = join(values.out, `page-${name}-${colorScheme}.png`);
      // Figures far from the viewport are skipped by content-visibility: auto until a reader
      // scrolls near them; a full-page picture shows all of them, as a reader meets them.
      // (Set through the CSSOM: the page's CSP refuses an injected style sheet.)
      await page.evaluate(() => {
        for (const figure of document.querySelectorAll('main .figure')) figure.style.contentVisibility = 'visible';
      });
      await page.screenshot({ path, fullPage: true });
      console.log(`wrote ${path}`);
      await context.close();
    }
  }
} finally {
  await chromium.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
