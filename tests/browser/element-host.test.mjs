// An element placed in a host that has its own ways: a slide deck's large, centred, spaced
// capitals, and its own key listeners. The figure still draws in the page's own text (the host
// reaches inside only through the documented --al-* custom properties), and a key that one of
// its controls uses moves that control without also reaching the host's listeners.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';

const session = useBrowser();
let hostDir = null;

before(async () => { hostDir = await mkdtemp(join(tmpdir(), 'attention-lab-host-styles-')); });
after(async () => { if (hostDir) await rm(hostDir, { recursive: true, force: true }); });

// What reveal.js and similar hosts set on their slides, on the body and on the element itself.
const LOUD_HOST = `
  body { font: italic 700 42px/3 serif; text-align: center; letter-spacing: 4px; word-spacing: 9px;
         text-transform: uppercase; text-indent: 3em; text-shadow: 1px 1px red; white-space: nowrap; }
  attention-figure { font-size: 42px; text-align: right; line-height: 3; text-transform: uppercase;
         --al-accent: rgb(200, 0, 100); }`;

const PROPERTIES = ['font-size', 'font-style', 'font-weight', 'line-height', 'text-align', 'letter-spacing',
  'word-spacing', 'text-transform', 'text-indent', 'text-shadow', 'white-space'];

async function textStyles(css) {
  const name = `host-${css ? 'loud' : 'plain'}.html`;
  await writeFile(join(hostDir, name), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>Host</title><style>${css}</style>
<script src="${pathToFileURL(join(WEB_ROOT, 'attention-figure.js')).href}"></script></head>
<body><attention-figure name="temperature"></attention-figure></body></html>`);
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(hostDir, name)).href);
  await page.waitForFunction(() => document.querySelector('attention-figure')?.dataset.labReady === 'true');
  const styles = await page.locator('attention-figure').evaluate((element, properties) => {
    const read = (node) => Object.fromEntries(properties.map((p) => [p, getComputedStyle(node).getPropertyValue(p)]));
    const root = element.shadowRoot;
    return {
      frame: read(root.querySelector('.al-frame')),
      caption: read(root.querySelector('figcaption, p')),
      label: read(root.querySelector('label')),
      accent: getComputedStyle(root.querySelector('figure')).getPropertyValue('--al-accent').trim(),
    };
  }, PROPERTIES);
  await context.close();
  return styles;
}

test('a host\'s text styles do not reach the figure; its --al-* properties do', async () => {
  const plain = await textStyles('');
  const loud = await textStyles(LOUD_HOST);
  assert.deepEqual(loud.frame, plain.frame, 'the figure\'s text reads as it does on a plain page');
  assert.deepEqual(loud.caption, plain.caption, 'the caption too');
  assert.deepEqual(loud.label, plain.label, 'the controls\' labels too');
  assert.equal(loud.frame['font-size'], '17px', 'the page\'s body text size (1.0625rem)');
  assert.equal(loud.caption['text-transform'], 'none');
  assert.equal(loud.accent, 'rgb(200, 0, 100)', 'the documented custom properties still pass');
});

test('keys a focused control uses stay with the figure; other keys reach the host', async () => {
  await writeFile(join(hostDir, 'deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>Deck</title>
<script src="${pathToFileURL(join(WEB_ROOT, 'attention-figure.js')).href}"></script></head>
<body><p id="slide-text">A slide</p><attention-figure name="by-hand"></attention-figure><attention-figure name="temperature"></attention-figure></body></html>`);
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(hostDir, 'deck.html')).href);
  // The deck's own listener, as reveal.js has one: on the document, bubbling.
  await page.evaluate(() => {
    window.heard = [];
    document.addEventListener('keydown', (event) => window.heard.push(event.key));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].every((e) => e.dataset.labReady === 'true'));
  const heard = () => page.evaluate(() => window.heard.splice(0));
  const temperature = page.locator('attention-figure[name="temperature"]');

  const tau = temperature.getByLabel('temperature \u03c4');
  await tau.focus();
  const before = await tau.getAttribute('aria-valuetext');
  for (const key of ['ArrowRight', 'ArrowUp', 'PageUp', 'End', 'Home']) await page.keyboard.press(key);
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await tau.getAttribute('aria-valuetext'), before, 'the slider moved');
  assert.deepEqual(await heard(), [], 'the deck heard none of the slider\'s keys');
  await page.keyboard.press('Escape');
  assert.deepEqual(await heard(), ['Escape'], 'a key the slider does not use still reaches the deck');

  // A drag handle of the by-hand planes moves with the arrows, and the deck hears nothing.
  const handle = page.locator('attention-figure[name="by-hand"]').getByRole('slider').first();
  await handle.focus();
  const label = await handle.getAttribute('aria-valuetext');
  await page.keyboard.press('ArrowLeft');
  assert.notEqual(await handle.getAttribute('aria-valuetext'), label, 'the handle moved');
  assert.deepEqual(await heard(), []);

  // With nothing of the figure focused, the deck hears every key.
  await page.locator('#slide-text').click();
  for (const key of ['ArrowRight', 'ArrowLeft', ' ']) await page.keyboard.press(key);
  assert.deepEqual(await heard(), ['ArrowRight', 'ArrowLeft', ' ']);
  await context.close();
});

test('a focused scroll box keeps the keys that scroll it; along an axis it does not scroll in, the host hears them', async () => {
  // 375 px wide: the by-hand code and the all-at-once output matrix scroll sideways.
  await writeFile(join(hostDir, 'narrow-deck.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width"><link rel="icon" href="data:,"><title>Deck</title>
<script src="${pathToFileURL(join(WEB_ROOT, 'attention-figure.js')).href}"></script></head>
<body><attention-figure name="by-hand"></attention-figure><attention-figure name="all-at-once"></attention-figure></body></html>`);
  const context = await session.browser.newContext({ viewport: { width: 375, height: 667 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(hostDir, 'narrow-deck.html')).href);
  await page.evaluate(() => {
    window.heard = [];
    document.addEventListener('keydown', (event) => window.heard.push(event.key));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-figure')].every((e) => e.dataset.labReady === 'true'));
  const heard = () => page.evaluate(() => window.heard.splice(0));
  const boxes = [
    page.locator('attention-figure[name="by-hand"]').locator('pre.by-hand-code'),
    page.locator('attention-figure[name="all-at-once"]').locator('.all-at-once-scroll'),
  ];
  for (const box of boxes) {
    const sizes = await box.evaluate((element) => [element.scrollWidth, element.clientWidth, element.scrollHeight, element.clientHeight]);
    assert.ok(sizes[0] > sizes[1] + 1, `the box overflows sideways at 375 px (${sizes})`);
    await box.focus();
    await page.keyboard.press('End'); // a box that does not scroll up and down: the host's
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((element) => element.scrollLeft > 0, await box.elementHandle());
    assert.ok(sizes[2] <= sizes[3] + 1, 'it does not scroll up and down');
    assert.deepEqual(await heard(), ['End'], 'the host heard only the key the box does not use');
    await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await heard(), []);
  }
  await context.close();
});
