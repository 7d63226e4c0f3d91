// An element placed in a host that styles text its own way (a slide deck's large, centred,
// spaced capitals) still draws its figure in the page's own text: the host reaches inside only
// through the documented --al-* custom properties.

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
