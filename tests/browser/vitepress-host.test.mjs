// A course site built with VitePress 1.6 (the npm package, built for real) from the README's
// recipe: the element's script in the config's head, Vue told that <attention-figure> is a
// custom element, and the colour scheme stated for both of VitePress's appearances. The figure
// shows and works, follows the site's light/dark toggle (also for a reader whose system is dark),
// its text stays readable in the site's own type, and the page logs nothing (no hydration
// mismatch).

import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { WEB_ROOT, useBrowser } from './harness.mjs';
import { slideReport } from './slide-check.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const session = useBrowser();
let siteDir = null;
let site = null;

// The recipe's three files, as the README gives them.
const CONFIG = `export default {
  title: 'Week 3',
  head: [['script', { src: '/attention-figure.js' }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'attention-figure' } } },
};
`;
const THEME = `import DefaultTheme from 'vitepress/theme';
import './custom.css';
export default DefaultTheme;
`;
const CSS = `/* VitePress marks only its dark appearance; say the light one too, so the figure follows both. */
:root { color-scheme: light; }
:root.dark { color-scheme: dark; }
`;
const PAGE = `# Attention, one knob

Move the temperature and watch the weights.

<attention-figure name="temperature" tau="0.5"></attention-figure>

After the figure.
`;

before(async () => {
  // Inside the project, so that the site's imports (vue, vitepress/theme) resolve from node_modules.
  await mkdir(join(ROOT, 'build'), { recursive: true });
  siteDir = await mkdtemp(join(ROOT, 'build', 'vitepress-site-'));
  await mkdir(join(siteDir, '.vitepress/theme'), { recursive: true });
  await mkdir(join(siteDir, 'public'), { recursive: true });
  await writeFile(join(siteDir, '.vitepress/config.mjs'), CONFIG);
  await writeFile(join(siteDir, '.vitepress/theme/index.js'), THEME);
  await writeFile(join(siteDir, '.vitepress/theme/custom.css'), CSS);
  await writeFile(join(siteDir, 'index.md'), PAGE);
  await copyFile(join(WEB_ROOT, 'attention-figure.js'), join(siteDir, 'public/attention-figure.js'));
  await copyFile(join(WEB_ROOT, 'favicon.svg'), join(siteDir, 'public/favicon.ico')); // the course's own icon
  const { build } = await import('vitepress');
  await build(siteDir, { logLevel: 'warn' });
  site = await startServer({ root: join(siteDir, '.vitepress/dist'), port: 0, host: '127.0.0.2' });
});

after(async () => {
  await site?.close();
  if (siteDir) await rm(siteDir, { recursive: true, force: true });
});

/** The figure's background: the page's light or dark surface. */
function figureScheme(page) {
  return page.locator('attention-figure').evaluate((element) => getComputedStyle(element.shadowRoot.querySelector('.al-frame')).colorScheme);
}

test('a VitePress page shows a working figure that follows the site\'s appearance toggle, and logs nothing', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${site.url}index.html`);
  await page.waitForFunction(() => document.querySelector('attention-figure')?.dataset.labReady === 'true');
  const figure = page.locator('attention-figure');

  // It works: the link's τ is in force and the slider moves.
  const tau = figure.getByLabel('temperature \u03c4');
  assert.equal(await tau.getAttribute('aria-valuetext'), '0.5');
  await tau.focus();
  await page.keyboard.press('End');
  assert.equal(await tau.getAttribute('aria-valuetext'), '100');
  assert.equal(await figure.getAttribute('tau'), '100', 'the learner\'s change is written back to the element');

  // Readable in the site's own type: the figure keeps its 17 px body text (VitePress sets
  // 16 px and its own line heights), and no piece of its text falls below the page's smallest
  // step, 0.8rem (12.8 px; 11 px inside the charts' SVG).
  assert.equal(await figure.evaluate((element) => getComputedStyle(element.shadowRoot.querySelector('.al-frame')).fontSize), '17px');
  const report = await page.evaluate(slideReport, { host: await figure.elementHandle(), minText: 12.8, minChartText: 11 });
  assert.deepEqual(report.small, [], 'text below the page\'s smallest size');

  // A dark-system reader starts on VitePress's dark appearance, and the figure with it.
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
  assert.equal(await figureScheme(page), 'dark');
  // The reader switches the site to light: the figure follows, and back.
  const toggle = page.getByRole('switch', { name: /dark theme|light theme|appearance/i }).first();
  await toggle.click();
  await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));
  await page.waitForFunction(() => getComputedStyle(document.querySelector('attention-figure').shadowRoot.querySelector('.al-frame')).colorScheme === 'light');
  await toggle.click();
  await page.waitForFunction(() => getComputedStyle(document.querySelector('attention-figure').shadowRoot.querySelector('.al-frame')).colorScheme === 'dark');
  assert.deepEqual(problems, [], 'no console error or warning, no hydration mismatch');
  await context.close();
});
