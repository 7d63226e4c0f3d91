// A course site built with React 19: the README's "In React or MDX" component, taken from the
// README as written (so the recipe itself is what is tested), bundled with esbuild into a small
// app that loads attention-figure.js in its head. The figure reads at the page's own text size,
// its slider moves with the arrow keys, the README's MDX line (as the JSX MDX makes of it) mounts, the learner's change reaches the React handler with
// source 'learner', a prop the app changes reaches the figure (and the handler, with source
// 'host'), and nothing is logged.

import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { startServer } from '../../scripts/serve.mjs';
import { WEB_ROOT, useBrowser } from './harness.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const session = useBrowser();
let siteDir = null;
let site = null;

/** The README's React component: the first ```jsx block of its "In React or MDX" section. */
async function readmeComponent() {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### In React or MDX'));
  const block = /```jsx\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the README has a jsx block under "In React or MDX"');
  return block[1];
}

/**
 * The README's MDX line (`<attention-figure name="heads" k="2" />`). MDX compiles a tag in its
 * text to the same JSX call a .jsx file makes, so the app renders it as JSX.
 */
async function readmeMdxTag() {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const tag = /In MDX the tag can be written directly: `(<attention-figure [^`]*\/>)`/.exec(readme);
  assert.ok(tag, 'the README has the MDX line');
  return tag[1];
}

// The app around it: the component with a handler that keeps what it hears, and a way to
// change its tau prop as the app's own state would.
const app = (mdxTag) => `import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { TemperatureFigure } from './TemperatureFigure.jsx';

window.reactChanges = [];
function App() {
  const [tau, setTau] = useState(0.5);
  window.setTau = setTau;
  const onChange = useCallback((detail) => window.reactChanges.push(detail), []);
  return <main><h1>Week 3: attention</h1><TemperatureFigure tau={tau} onChange={onChange} />${mdxTag}</main>;
}
createRoot(document.getElementById('root')).render(<App />);
`;

before(async () => {
  siteDir = await mkdtemp(join(tmpdir(), 'attention-lab-react-'));
  await writeFile(join(siteDir, 'TemperatureFigure.jsx'), await readmeComponent());
  await writeFile(join(siteDir, 'app.jsx'), app(await readmeMdxTag()));
  await esbuild.build({
    entryPoints: [join(siteDir, 'app.jsx')],
    outfile: join(siteDir, 'app.js'),
    bundle: true,
    format: 'iife',
    jsx: 'automatic',
    nodePaths: [join(ROOT, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"development"' }, // React's development build warns aloud
    logLevel: 'silent',
  });
  await copyFile(join(WEB_ROOT, 'attention-figure.js'), join(siteDir, 'attention-figure.js'));
  await writeFile(join(siteDir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>Week 3: attention</title>
<script src="attention-figure.js"></script></head>
<body><div id="root"></div><script src="app.js"></script></body></html>`);
  site = await startServer({ root: siteDir, port: 0, host: '127.0.0.2' });
});

after(async () => {
  await site?.close();
  if (siteDir) await rm(siteDir, { recursive: true, force: true });
});

test('the README\'s React component: readable, keyboard-driven, and its handler hears the learner', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${site.url}index.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].map((e) => e.dataset.labReady).join() === 'true,true',
    null, { timeout: 30000 });
  const figure = page.locator('attention-figure[name="temperature"]');
  // The MDX line's figure: heads at k = 2, four heads.
  const heads = page.locator('attention-figure[name="heads"]');
  assert.equal(await heads.getByLabel('heads h = 2^k').getAttribute('aria-valuetext'), '4');

  const sizes = await figure.evaluate((element) => {
    const px = (node) => parseFloat(getComputedStyle(node).fontSize);
    const root = element.shadowRoot;
    return { frame: px(root.querySelector('.al-frame')), caption: px(root.querySelector('figcaption')), label: px(root.querySelector('label')) };
  });
  // The page's body size (1.0625rem); the caption is set a little smaller, as on the page.
  assert.ok(sizes.frame >= 17 && sizes.label >= 17, `body text and labels at least 17 px: ${JSON.stringify(sizes)}`);
  assert.ok(sizes.caption >= 14, `the caption at least 14 px: ${sizes.caption}px`);

  const tau = figure.getByLabel('temperature \u03c4');
  assert.equal(await tau.getAttribute('aria-valuetext'), '0.5', 'React passed tau as an attribute');
  assert.deepEqual(await page.evaluate(() => window.reactChanges), [], 'nothing is announced on load');
  await tau.focus();
  await page.keyboard.press('ArrowRight');
  const moved = await tau.getAttribute('aria-valuetext');
  assert.notEqual(moved, '0.5', 'the slider moved with the arrow key');
  assert.equal(await figure.getAttribute('tau'), moved, 'and wrote the learner\'s value to the attribute');
  const heard = await page.evaluate(() => window.reactChanges);
  assert.equal(heard.length, 1);
  assert.deepEqual(heard[0], { name: 'temperature', settings: { query: 7, tau: Number(moved) }, source: 'learner' });

  // The app's own state changes the prop: the figure follows, and the handler hears it as the host's.
  await page.evaluate(() => window.setTau(2));
  await page.waitForFunction(() => window.reactChanges.length === 2);
  assert.equal(await tau.getAttribute('aria-valuetext'), '2');
  assert.deepEqual((await page.evaluate(() => window.reactChanges))[1], { name: 'temperature', settings: { query: 7, tau: 2 }, source: 'host' });
  assert.deepEqual(problems, []);
  await context.close();
});
