// A teacher's slide deck: a real reveal.js 6 deck (the npm package, served as a course host
// would) with an <attention-figure layout="slide"> on a 1280×720 slide, as the README's recipe
// has it. The figure fits the slide, its text is at least 18 px (its own slide size, not the
// deck's 42 px), its colours follow the deck's dark scheme, an arrow key on its slider moves
// the slider and leaves the slide where it is, the same key with nothing of the figure focused
// turns the slide, and nothing is logged.

import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { WEB_ROOT, useBrowser } from './harness.mjs';
import { FLOORS, slideReport } from './slide-check.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const REVEAL = join(ROOT, 'node_modules/reveal.js/dist');
const session = useBrowser();
let deckDir = null;
let deck = null;

before(async () => {
  deckDir = await mkdtemp(join(tmpdir(), 'attention-lab-deck-'));
  for (const file of ['reveal.js', 'reveal.css', 'theme/black.css']) {
    await copyFile(join(REVEAL, file), join(deckDir, file.replace('theme/', '')));
  }
  await copyFile(join(WEB_ROOT, 'attention-figure.js'), join(deckDir, 'attention-figure.js'));
  // The README's recipe: the element's script, the deck's dark scheme named for the figure to
  // follow, the element in its slide layout on a 1280×720 slide, reveal as it ships.
  await writeFile(join(deckDir, 'deck.css'), ':root { color-scheme: dark; }\n');
  await writeFile(join(deckDir, 'deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>Week 3: attention</title>
<link rel="stylesheet" href="reveal.css"><link rel="stylesheet" href="black.css"><link rel="stylesheet" href="deck.css">
<script src="attention-figure.js"></script></head>
<body><div class="reveal"><div class="slides">
<section><h2>Attention</h2><p id="intro">Each token asks a question.</p></section>
<section><attention-figure name="temperature" tau="0.5" layout="slide"></attention-figure></section>
<section><p>The end</p></section>
</div></div>
<script src="reveal.js"></script><script src="start-deck.js"></script></body></html>`);
  await writeFile(join(deckDir, 'start-deck.js'), 'Reveal.initialize({ width: 1280, height: 720, hash: false, transition: "none" });\n');
  deck = await startServer({ root: deckDir, port: 0, host: '127.0.0.2' });
});

after(async () => {
  await deck?.close();
  if (deckDir) await rm(deckDir, { recursive: true, force: true });
});

test('a figure on a reveal.js slide fits it, is readable, follows the deck\'s scheme, and its slider keeps its arrow keys', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${deck.url}deck.html`);
  await page.waitForFunction(() => window.Reveal?.isReady());
  const slide = () => page.evaluate(() => window.Reveal.getIndices().h);
  assert.equal(await slide(), 0);

  // To the figure's slide, as a teacher would: the arrow key with nothing focused.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.Reveal.getIndices().h === 1);
  const figure = page.locator('attention-figure');
  await page.waitForFunction(() => document.querySelector('attention-figure').dataset.labReady === 'true');

  // The deck's theme sets 42 px text on its slides; the figure keeps its own slide size.
  const text = await figure.evaluate((element) => {
    const frame = getComputedStyle(element.shadowRoot.querySelector('.al-frame'));
    return { size: frame.fontSize, align: frame.textAlign, deck: getComputedStyle(element.parentElement).fontSize };
  });
  assert.equal(text.deck, '42px', 'the deck\'s own text size, which the figure must not take');
  assert.equal(text.size, '20px');
  assert.equal(text.align, 'start');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const report = await page.evaluate(slideReport, { host: await figure.elementHandle(), ...FLOORS });
  assert.deepEqual(report.small, [], 'every piece of text at 18 px or more (16 px in the charts)');
  assert.deepEqual(report.scrolling, [], 'nothing scrolls inside the figure');
  // It fits the slide: 720 px high at most in the slide's own pixels, and inside the slide as
  // reveal scales it to the window.
  const fit = await figure.evaluate((element) => {
    const slides = document.querySelector('.reveal .slides').getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return { height: element.offsetHeight, width: element.offsetWidth, inside: box.top >= slides.top - 1 && box.bottom <= slides.bottom + 1 && box.left >= slides.left - 1 && box.right <= slides.right + 1 };
  });
  assert.ok(fit.height <= 720 && fit.width <= 1280, `the figure is ${fit.width} × ${fit.height} px`);
  assert.equal(fit.inside, true, 'the figure stays inside the slide');
  // The deck is dark (black.css, and the recipe's color-scheme): so is the figure.
  assert.equal(await figure.evaluate((element) => getComputedStyle(element.shadowRoot.querySelector('.al-frame')).colorScheme), 'dark');
  const background = await figure.evaluate((element) => getComputedStyle(element.shadowRoot.querySelector('.figure')).backgroundColor);
  const [r, g, b] = background.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 3 * 80, `a dark surface, not ${background}`);

  const tau = figure.getByLabel('temperature \u03c4');
  await tau.focus();
  assert.equal(await tau.getAttribute('aria-valuetext'), '0.5');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await tau.getAttribute('aria-valuetext'), '0.5', 'the slider moved');
  assert.equal(await slide(), 1, 'the slide stayed');

  await page.locator('.slides section').nth(1).evaluate(() => document.activeElement?.blur());
  await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
  assert.deepEqual(problems, []);
  await context.close();
});
