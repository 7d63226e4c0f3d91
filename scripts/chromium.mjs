// Launches the system's Chromium (Debian's /usr/bin/chromium) through playwright-core,
// which cannot download a browser of its own here. Chromium and Playwright leave profile
// folders in $TMPDIR, so both are pointed at a private folder that close() deletes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

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
  // Under the system's temp folder, not the clone's build/: Chromium keeps a Unix socket in
  // its profile, and a socket's path may hold at most 107 bytes, which a clone in a deep
  // folder outgrows (a clone in /tmp/tmp.XXXXXXXXXX/repo failed every browser test so).
  const tmpDir = mkdtempSync(join(tmpdir(), 'attention-lab-chromium-'));
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
