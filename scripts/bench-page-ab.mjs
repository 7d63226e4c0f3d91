#!/usr/bin/env node
// Two builds of the page side by side on one of the budget's key presses, in one browser, with
// an empty page taking turns with them: a short round of presses on each, again and again. The
// machine's speed drifts over minutes, by more than most single changes save, so two builds
// measured one after the other (as two runs of bench-page.mjs would) cannot tell a 0.3 ms
// change from drift; interleaved, both see the same drift.
// A tool for changing the page, not a report: it prints medians and writes nothing.
//
// Usage: node scripts/bench-page-ab.mjs <dirA> <dirB> [--press tau|heads|keys|bare] [--phone]
//          [--rounds 8] [--per 20] [--run N]
//   dirA, dirB  two folders built by scripts/build-web.mjs (e.g. with --out build/web-b)
//   --press     tau: the temperature slider; heads: the head split, h = 4 → 8 (only the steps
//               to 8 are kept); keys: the width experiment's keys slider; bare: a bare range
//               input added to the page above the heads figure (what the page's size alone costs)
//   --phone     375 px, as bench-page.mjs's phone (else 1280 px)
//   --run       τ only: presses one way before turning back (default 10; bench-page.mjs turns
//               after 25, which reaches flatter rows, where more cells change per press)

import { parseArgs } from 'node:util';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { DESKTOP, PHONE, backAndForth, openEmptyPage, openPage, pressAll } from './bench-page-probe.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    press: { type: 'string', default: 'tau' },
    phone: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '8' },
    per: { type: 'string', default: '20' },
    run: { type: 'string', default: '10' },
  },
});
const PRESSES = ['tau', 'heads', 'keys', 'bare'];
if (positionals.length !== 2 || !PRESSES.includes(values.press)) {
  console.error(`usage: node scripts/bench-page-ab.mjs <dirA> <dirB> [--press ${PRESSES.join('|')}] [--phone] [--rounds N] [--per N] [--run N]`);
  process.exit(2);
}
const contextOptions = values.phone ? PHONE : DESKTOP;
const rounds = Number(values.rounds);
const per = Number(values.per);

async function emptyPage(browser) {
  const { page } = await openEmptyPage(browser, 1, { contextOptions });
  return { page, keys: backAndForth(20, per) };
}

/** A page of one build, its focus on the press's control: { page, keys(), kept(i) }. */
async function labPage(browser, url) {
  const { page } = await openPage(browser, url, 1, { contextOptions });
  const control = async (figure, label) => {
    const slider = page.locator(figure).getByLabel(label, { exact: true });
    await slider.scrollIntoViewIfNeeded();
    await slider.focus();
  };
  if (values.press === 'heads') {
    await control('#figure-heads', 'heads h = 2^k');
    for (const key of ['Home', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key); // h = 4
    return { page, keys: backAndForth(1, per), kept: (i) => i % 2 === 0 };
  }
  if (values.press === 'keys') {
    await control('#figure-why-scale', 'keys m');
    await page.keyboard.press('Home');
    return { page, keys: backAndForth(60, per) };
  }
  if (values.press === 'bare') {
    await page.evaluate(() => {
      const row = document.createElement('p');
      row.innerHTML = '<input type="range" id="bare-range" aria-label="bare" min="0" max="100" value="50"><output></output>';
      document.querySelector('#figure-heads').before(row);
      row.querySelector('input').addEventListener('input', (event) => { row.querySelector('output').textContent = event.target.value; });
    });
    await page.locator('#bare-range').scrollIntoViewIfNeeded();
    await page.focus('#bare-range');
    return { page, keys: backAndForth(20, per) };
  }
  await control('#figure-temperature', 'temperature \u03c4');
  return { page, keys: backAndForth(Number(values.run), per) };
}

const chromium = await launchChromium();
const servers = await Promise.all(positionals.map((root) => startServer({ root, port: 0, csp: true })));
try {
  const sides = {
    'empty page': await emptyPage(chromium.browser),
    A: await labPage(chromium.browser, servers[0].url),
    B: await labPage(chromium.browser, servers[1].url),
  };
  const work = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  const rendering = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  // The side that went last in a round measured up to 0.7 ms slower than the same build going
  // first (an A/A run of one build against itself): what the side before it started after its
  // last press (the width experiment's full run, deferred names) ran beside it. So each side's
  // round ends with a pause for that work, and A and B take turns at going first.
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['empty page', 'A', 'B'] : ['empty page', 'B', 'A'];
    for (const [name, side] of order.map((key) => [key, sides[key]])) {
      await side.page.bringToFront();
      const presses = await pressAll(side.page, side.keys());
      await side.page.waitForTimeout(400);
      presses.work.forEach((ms, i) => {
        if (side.kept && !side.kept(i)) return;
        work[name].push(ms);
        rendering[name].push(presses.rendering[i]);
      });
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  // The page's clock ticks in 0.1 ms, so medians move in steps of 0.1 ms; the mean of the middle
  // 80 % of presses resolves finer differences (and leaves out the rare disturbed press).
  const trimmedMean = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const kept = sorted.slice(Math.floor(sorted.length * 0.1), Math.ceil(sorted.length * 0.9));
    return kept.reduce((sum, x) => sum + x, 0) / kept.length;
  };
  const floor = median(work['empty page']);
  const floorMean = trimmedMean(work['empty page']);
  console.log(`${values.press} at ${values.phone ? 375 : 1280} px, ${rounds} rounds of ${per} presses; A = ${positionals[0]}, B = ${positionals[1]}`);
  for (const name of Object.keys(sides)) {
    console.log(`${name.padEnd(10)} work ${median(work[name]).toFixed(2)} ms (${(median(work[name]) / floor).toFixed(2)}×), `
      + `trimmed mean ${trimmedMean(work[name]).toFixed(2)} ms (${(trimmedMean(work[name]) / floorMean).toFixed(2)}×), `
      + `rendering ${median(rendering[name]).toFixed(2)} ms, ${work[name].length} presses`);
  }
} finally {
  await chromium.close();
  for (const server of servers) await server.close();
}
