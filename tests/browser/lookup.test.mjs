// The "lookup picture" figure, checked through what a learner sees: the shapes printed for
// Q, K, V and every step to the output, the score map, and the "tie W_K to W_Q" experiment
// that must make the score map symmetric.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';
import { noticesOf } from './toolbar-helpers.mjs';

const session = useBrowser();

function lookupFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByLabel('tie W_K to W_Q') });
  return {
    figure,
    tie: figure.getByLabel('tie W_K to W_Q'),
    projections: figure.getByRole('list', { name: 'the three projections and their shapes' }).getByRole('listitem'),
    flow: figure.getByRole('list', { name: 'The path from queries to output' }).getByRole('listitem'),
    grid: figure.getByRole('grid', { name: 'scaled scores, queries by keys' }),
    symmetry: figure.getByLabel('score matrix', { exact: true }),
    gap: figure.getByLabel('largest |S − Sᵀ|'),
    itToCat: figure.getByLabel('score “it” → “cat”'),
    catToIt: figure.getByLabel('score “cat” → “it”'),
  };
}

/** The 8×8 scores as the grid's cells announce them, e.g. "query “it” (7), key “cat” (1): 6.268". */
async function scoresFromCells(view) {
  const names = await view.grid.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  assert.equal(names.length, 64);
  return Array.from({ length: 8 }, (_, i) => names.slice(i * 8, (i + 1) * 8).map(trailingNumber));
}

function largestAsymmetry(S) {
  let largest = 0;
  for (let i = 0; i < S.length; i += 1) for (let j = 0; j < S.length; j += 1) largest = Math.max(largest, Math.abs(S[i][j] - S[j][i]));
  return largest;
}

test('the figure shows Q, K and V of the toy sentence with their shapes, and every shape on the way to the output', async () => {
  const { page, problems } = await session.openPage();
  const view = lookupFigure(page);
  await view.figure.waitFor();
  assert.equal(await page.getByRole('heading', { level: 2, name: /Three jobs for every token/ }).count(), 1);

  const projections = await view.projections.allInnerTexts();
  assert.equal(projections.length, 3);
  for (const [text, name] of projections.map((t, i) => [t, 'QKV'[i]])) {
    assert.match(text, new RegExp(`^${name} = X\\s?W`), `projection ${name}: ${text}`);
    assert.match(text, /8 × 64/, `${name} is n × d_k = 8 × 64: ${text}`);
    assert.match(text, /from \(8 × 64\) times \(64 × 64\)/, `X is 8 × 64 and W is 64 × 64: ${text}`);
  }

  const flow = await view.flow.allInnerTexts();
  assert.equal(flow.length, 5, 'five steps from queries and keys to the output');
  assert.match(flow[0], /Q\s+8 × 64[\s\S]*K\s+8 × 64/);
  assert.match(flow[1], /S\s+8 × 8/, 'the scores are n × m');
  assert.match(flow[2], /A\s+8 × 8/, 'the weights are n × m');
  assert.match(flow[3], /V\s+8 × 64/);
  assert.match(flow[4], /O\s+8 × 64/, 'the output is n × d_v');
  assert.deepEqual(problems, []);
});

test('with separate W_Q and W_K the scores are not symmetric, and "it" scores "cat" highest', async () => {
  const { page, problems } = await session.openPage();
  const view = lookupFigure(page);
  assert.equal(await view.tie.isChecked(), false);
  assert.equal(await view.symmetry.innerText(), 'not symmetric');

  const S = await scoresFromCells(view);
  const shownGap = Number((await view.gap.innerText()).replace('−', '-'));
  assert.ok(shownGap > 1, `the scores are far from symmetric (gap ${shownGap})`);
  assert.ok(Math.abs(shownGap - largestAsymmetry(S)) < 0.002, 'the gap readout matches the cells');

  const itToCat = trailingNumber(await view.itToCat.innerText());
  const catToIt = trailingNumber(await view.catToIt.innerText());
  assert.ok(Math.abs(itToCat - S[7][1]) < 0.001, 'the "it" → "cat" readout is row 7, column 1');
  assert.ok(Math.abs(catToIt - S[1][7]) < 0.001, 'the "cat" → "it" readout is row 1, column 7');
  assert.ok(itToCat > catToIt + 1, `"it" looks for "cat" (${itToCat}) much more than "cat" for "it" (${catToIt})`);
  assert.equal(S[7].indexOf(Math.max(...S[7])), 1, 'the query "it" scores the key "cat" highest');
  assert.match(await view.figure.innerText(), /“it” scores “cat” higher than “cat” scores “it”/);
  assert.deepEqual(problems, []);
});

test('tying W_K to W_Q makes the score matrix symmetric and the two cross scores equal', async () => {
  const { page, problems } = await session.openPage();
  const view = lookupFigure(page);
  const before = await scoresFromCells(view);
  await view.tie.check();

  assert.equal(await view.symmetry.innerText(), 'symmetric');
  assert.equal(await view.gap.innerText(), '0.000');
  const S = await scoresFromCells(view);
  assert.notDeepEqual(S, before, 'the map was recomputed');
  assert.ok(largestAsymmetry(S) < 1e-9, 'every cell equals its mirror cell');
  const itToCat = await view.itToCat.innerText();
  const catToIt = await view.catToIt.innerText();
  assert.equal(itToCat, catToIt, 'the two cross scores are the same number');
  assert.match(await view.figure.innerText(), /“it” scores “cat” exactly as high as “cat” scores “it”/);
  await page.waitForFunction(() => location.search.includes('lookup.tie=on'));

  await view.tie.uncheck();
  assert.equal(await view.symmetry.innerText(), 'not symmetric');
  assert.deepEqual(await scoresFromCells(view), before, 'unticking brings the separate projections back');
  assert.deepEqual(problems, []);
});

test('the tie works from the keyboard and a link restores it', async () => {
  const { page, problems } = await session.openPage();
  const view = lookupFigure(page);
  await view.tie.focus();
  await page.keyboard.press('Space');
  assert.equal(await view.tie.isChecked(), true);
  assert.equal(await view.symmetry.innerText(), 'symmetric');
  assert.deepEqual(problems, []);

  const restored = await session.openPage({ search: '?lookup.tie=on' });
  const again = lookupFigure(restored.page);
  assert.equal(await again.tie.isChecked(), true);
  assert.equal(await again.symmetry.innerText(), 'symmetric');
  assert.deepEqual(restored.problems, []);
});

test('older links\u2019 spellings of the tie still read, and the address bar writes on or off', async () => {
  for (const [spelling, tied] of [['1', true], ['0', false], ['yes', true], ['TRUE', true], ['off', false]]) {
    const { page, problems } = await session.openPage({ search: `?lookup.tie=${spelling}&utm_source=mail` });
    const view = lookupFigure(page);
    assert.equal(await view.tie.isChecked(), tied, spelling);
    assert.equal(await view.symmetry.innerText(), tied ? 'symmetric' : 'not symmetric', spelling);
    // Written once the figure has mounted (the address bar is written 250 ms late).
    await page.waitForFunction((on) => new URLSearchParams(location.search).get('lookup.tie') === (on ? 'on' : null), tied);
    assert.equal(new URL(page.url()).searchParams.get('utm_source'), 'mail', spelling);
    assert.deepEqual(await noticesOf(page), [], `${spelling} needs no notice`);
    assert.deepEqual(problems, []);
    await page.context().close();
  }
  const { page, problems } = await session.openPage({ search: '?lookup.tie=maybe' });
  assert.equal(await lookupFigure(page).tie.isChecked(), false);
  assert.deepEqual(await noticesOf(page), ['The link asked for lookup.tie = maybe, which is not on or off; using off.']);
  assert.deepEqual(problems, []);
});

test('the figure fits a 375 px phone screen without sideways scrolling', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const view = lookupFigure(page);
  // The score map's signed values need more room than 375 px leaves at the 11 px text floor:
  // it fits, or it scrolls inside its own frame, a named tab stop.
  const fits = await view.grid.evaluate((svg) => {
    const frame = svg.closest('.heatmap-frame');
    const region = svg.closest('[role=region]');
    return svg.getBoundingClientRect().width <= 375
      || (frame.getBoundingClientRect().right <= 375 && region?.getAttribute('tabindex') === '0' && /scrolls sideways/.test(region.getAttribute('aria-label')));
  });
  assert.ok(fits, 'the score map fits the screen or scrolls inside its frame');
  const figureBox = await view.figure.boundingBox();
  assert.ok(figureBox.x >= 0 && figureBox.x + figureBox.width <= 375, 'the figure stays on screen');
  assert.deepEqual(problems, []);
});

test('the path to the output: no box runs into another step or out of the figure, from 375 px to 1280 px', async () => {
  // Two 8 × 64 sketches side by side used to be wider than their step's share of a row, so
  // at 820–1280 px they ran into the neighbouring steps and out of the figure's left edge.
  for (const width of [375, 820, 1024, 1280]) {
    const { page, problems } = await session.openPage({ contextOptions: { viewport: { width, height: 900 } } });
    const view = lookupFigure(page);
    await view.figure.evaluate((figure) => figure.scrollIntoView());
    const { boxes, figure } = await view.figure.evaluate((node) => {
      const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
      const steps = [...node.querySelectorAll('.lookup-step')];
      return {
        figure: box(node.querySelector('.lookup-flow')),
        boxes: steps.flatMap((step, s) => [...step.querySelectorAll('.lookup-box')].map((b) => ({ step: s, ...box(b) }))),
      };
    });
    assert.equal(boxes.length, 7, `${width} px: seven boxes on the way`);
    for (const b of boxes) {
      assert.ok(b.left >= figure.left - 0.5 && b.right <= figure.right + 0.5, `${width} px: step ${b.step}'s box stays in the flow (${JSON.stringify(b)} in ${JSON.stringify(figure)})`);
    }
    for (const a of boxes) {
      for (const b of boxes) {
        if (a === b) continue;
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        assert.ok(!overlap, `${width} px: a box of step ${a.step} overlaps a box of step ${b.step}`);
      }
    }
    assert.deepEqual(problems, []);
  }
});
