// The page and every embed under the strict Content-Security-Policy, with every request
// that leaves the page's own origin blocked: they must still fully work, and the browser
// must report no policy violation. The same checks run against the dist/ build, with its
// hashed file names and pre-compressed copies.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, renderAllFigures, useBrowser, scrollToFigure } from './harness.mjs';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
  + "base-uri 'none'; form-action 'none'; object-src 'none'";
const session = useBrowser();
let distDir = null;
let dist = null;

before(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
  await buildDist({ from: WEB_ROOT, out: distDir });
  dist = await startServer({ root: distDir, port: 0, csp: true });
});

after(async () => {
  await dist?.close();
  if (distDir) await rm(distDir, { recursive: true, force: true });
});

/** Opens `url` with outside requests blocked; resolves to what was blocked and violated. */
async function openSealed(url) {
  const context = await session.browser.newContext(DESKTOP);
  const origin = new URL(url).origin;
  const blocked = [];
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (new URL(target).origin === origin || target.startsWith('data:')) return route.continue();
    blocked.push(target);
    return route.abort('internetdisconnected');
  });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  const response = await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
  // Off-screen sections and figures skip rendering and have no innerText: render them all.
  await renderAllFigures(page);
  const violations = await page.evaluate(() => window.__violations);
  return { context, page, blocked, problems, violations, policy: response.headers()['content-security-policy'] };
}

async function figureNames(url) {
  const { context, page } = await openSealed(url);
  const names = await page.locator('[data-figure]').evaluateAll((els) => els.map((e) => e.dataset.figure));
  await context.close();
  return names;
}

for (const [label, base] of [['build/web', () => session.url], ['dist', () => dist.url]]) {
  test(`${label}: the page works sealed off and under the strict CSP`, async () => {
    const { context, page, blocked, problems, violations, policy } = await openSealed(base());
    // The full page may be framed only by its own origin; the embeds (below) by any course page.
    assert.equal(policy, `${POLICY}; frame-ancestors 'self'`);
    assert.deepEqual(blocked, [], 'nothing asked for another origin');
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    // Every figure mounted and computed: no figure shows an error, and the core's numbers are there.
    assert.equal(await page.locator('.figure-error:visible, .figure-status-error:visible, .figure-status:visible').count(), 0);
    await scrollToFigure(page, '#figure-temperature'); // a figure far off screen is rendered once a reader nears it
    assert.match(await page.locator('#figure-temperature').getByLabel('on key').innerText(), /cat/);
    await context.close();
  });

  test(`${label}: every embed works sealed off and under the strict CSP`, async () => {
    const names = await figureNames(base());
    assert.ok(names.length >= 10);
    for (const name of names) {
      const { context, page, blocked, problems, violations, policy } = await openSealed(`${base()}embed.html?figure=${name}`);
      assert.equal(policy, POLICY, name);
      assert.deepEqual(blocked, [], name);
      assert.deepEqual(violations, [], name);
      assert.deepEqual(problems, [], name);
      assert.equal(await page.locator(`figure[data-figure="${name}"]`).count(), 1, name);
      assert.equal(await page.locator('.figure-error:visible').count(), 0, name);
      await context.close();
    }
  });
}

test('dist: hashed names, pre-compressed copies, and a size report', async () => {
  const sizes = JSON.parse(await readFile(join(distDir, 'sizes.json'), 'utf8'));
  const names = Object.keys(sizes.files);
  assert.ok(names.some((n) => /^main\.[0-9a-f]{10}\.js$/.test(n)), 'hashed page bundle');
  assert.ok(names.some((n) => /^attention_lab_web\.[0-9a-f]{10}\.wasm$/.test(n)), 'hashed wasm');
  assert.ok(names.includes('attention-figure.js') && names.includes('embed.html') && names.includes('index.html'));
  for (const [name, info] of Object.entries(sizes.files)) {
    if (info.gzip !== undefined) assert.ok(info.gzip < info.bytes, `${name}.gz is smaller`);
  }
  const page = sizes.visits['the page (index.html)'];
  assert.ok(page.gzip > 50_000 && page.gzip < 400_000, `the page downloads ${page.gzip} gzipped bytes`);
  const response = await fetch(`${dist.url}attention-figure.js`);
  assert.equal(response.status, 200);
});
