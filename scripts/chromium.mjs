// Launches the system's Chromium (Debian's /usr/bin/chromium) through playwright-core,
// which cannot download a browser of its own here. Chromium and Playwright leave profile
// folders in $TMPDIR, so both are pointed at a private folder that close() deletes.

import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the networking flags Chromium keeps trying to reach services on the internet.
const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Launches Chromium; resolves to { browser, close() }. close() also removes the temp folder.
 * extraArgs: more command-line flags (the page benchmark turns off the frame-rate limit).
 */
export async function launchChromium({ extraArgs = [] } = {}) {
  const tmpDir = join(ROOT, 'build', 'tmp', `chromium-${process.pid}-${Date.now()}`);
  mkdirSync(tmpDir, { recursive: true });
  const previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmpDir; // Playwright's own profile folder follows os.tmpdir()
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...FLAGS, ...extraArgs],
      env: { ...process.env, TMPDIR: tmpDir },
    });
  } catch (error) {
    rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  } finally {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  }
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}
