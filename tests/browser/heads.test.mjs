// The "One layer, several heads" figure, driven like a learner: move the heads slider with the
// keyboard, read the maps' cells by their accessible names and the readouts by their labels,
// and compare what the page shows with the lesson's numbers and with the core run under node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLab } from '../js/load-lab.mjs';
import { PHONE, scrollToFigure, trailingNumber, useBrowser } from './harness.mjs';
import { elementsReady, openHost } from './host-page.mjs';

const session = useBrowser();
const lab = await loadLab();
const toy = lab.toySentence();

function headsFigure(page) {
  const figure = page.locator('#figure-heads');
  return {
    figure,
    slider: figure.getByLabel('heads h = 2^k'),
    grids: figure.getByRole('grid'),
    sumCheck: figure.getByLabel(/largest difference/),
    example: figure.getByLabel(/“it” → “cat”, raw score/),
    toyCount: figure.getByLabel('toy layer, d = 64'),
    paperCount: figure.getByLabel('paper, d_model = 512'),
  };
}

/** Moves the slider to k = 0 … 3 with the keyboard, as a learner would. */
async function setK(page, view, k) {
  await view.slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < k; i += 1) await page.keyboard.press('ArrowRight');
  assert.equal(await view.slider.getAttribute('aria-valuetext'), String(2 ** k));
}

/** The weights of one row of a grid, read from the cells' accessible names. */
async function rowWeights(grid, rowName) {
  const cells = grid.getByRole('row', { name: `query ${rowName}` }).getByRole('gridcell');
  const names = await cells.evaluateAll((list) => list.map((c) => c.getAttribute('aria-label')));
  return names.map(trailingNumber);
}

const digits = (text) => Number(text.replace(/[^\d]/g, ''));

/** Picks head `s` through its thumbnail, as a learner would. */
async function pick(view, s) {
  const thumb = view.figure.getByRole('button', { name: new RegExp(`^head ${s}, columns`) });
  await thumb.click();
  assert.equal(await thumb.getAttribute('aria-pressed'), 'true');
}

test('by default h = 2: the full-width head, head 0 drawn large and a thumbnail per head, without console errors', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  assert.equal(await page.getByRole('heading', { level: 2, name: 'One layer, several heads' }).count(), 1);
  assert.equal(await view.slider.getAttribute('aria-valuetext'), '2');
  assert.equal(await view.grids.count(), 2, 'full-width head + the picked head');
  assert.equal(await view.grids.nth(0).getByRole('gridcell').count(), 64, 'an 8×8 map');
  assert.equal(await view.figure.getByRole('grid', { name: /^head 0 of 2, columns 0–31/ }).count(), 1);
  assert.equal(await view.figure.getByRole('button', { name: 'head 0, columns 0–31' }).getAttribute('aria-pressed'), 'true');
  await pick(view, 1);
  assert.equal(await view.figure.getByRole('grid', { name: /^head 1 of 2, columns 32–63/ }).count(), 1);
  assert.deepEqual(problems, []);
});

test('h = 4: each head, picked from its thumbnail, is named by its job; the pronoun head sends "it" to "cat"', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  await setK(page, view, 2);
  assert.equal(await view.figure.getByRole('button', { name: /^head \d, columns/ }).count(), 4);
  const jobs = Array.from(toy.headJobs);
  for (const [s, job] of jobs.entries()) {
    await pick(view, s);
    const grid = view.figure.getByRole('grid', { name: `head ${s} of 4, columns ${16 * s}–${16 * s + 15}, ${job}: weights, queries by keys` });
    assert.equal(await grid.count(), 1, `head ${s} labelled with its slice and job "${job}"`);
    assert.equal(await view.figure.getByText(job, { exact: true }).count(), 1, `the job "${job}" is printed`);
  }
  await pick(view, 1);
  const pronoun = view.figure.getByRole('grid', { name: /pronoun → animate/ });
  const weights = await rowWeights(pronoun, '“it” (7)');
  assert.equal(weights.length, 8);
  assert.equal(weights.indexOf(Math.max(...weights)), 1, `"it" puts its largest weight on "cat": ${weights}`);
  assert.ok(weights[1] > 0.99, `and nearly all of it (${weights[1]})`);

  // The page shows what the core computes.
  const core = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4).heads[1].weights;
  weights.forEach((w, j) => assert.ok(Math.abs(w - core.data[7 * 8 + j]) < 5e-5, `cell (it, ${j}): page ${w}, core ${core.data[7 * 8 + j]}`));
  await page.waitForFunction(() => location.search.includes('heads.k=2') && location.search.includes('heads.head=1'));
  assert.deepEqual(problems, []);
});

test('every slice is readable at every h, at 1280 and 375 px: as large as the full-width map, numbers printed, a legend per map', async () => {
  for (const contextOptions of [undefined, PHONE]) {
    const { page, problems } = await session.openPage(contextOptions ? { contextOptions } : {});
    const view = headsFigure(page);
    const where = contextOptions ? '375 px' : '1280 px';
    for (const k of [1, 2, 3, 4]) {
      await setK(page, view, k);
      const h = 2 ** k;
      await pick(view, h - 1); // the last head, the one that used to be smallest
      const full = await view.grids.nth(0).boundingBox();
      const picked = view.figure.getByRole('grid', { name: new RegExp(`^head ${h - 1} of ${h},`) });
      const box = await picked.boundingBox();
      assert.ok(box.width >= 0.9 * full.width, `${where}, h = ${h}: the picked head is ${box.width}px wide, the full-width map ${full.width}px`);
      assert.ok(box.x >= 0 && box.x + box.width <= (contextOptions ? 375 : 1280), `${where}, h = ${h}: inside the screen`);
      // Printed numbers and labels at least 8 px high on screen.
      const sizes = await picked.evaluate((svg) => {
        const label = svg.querySelector('.heatmap-labels text:not(.heatmap-axis-title)');
        const font = svg.closest('.heatmap-frame').querySelector('.heatmap-canvas').dataset.font;
        return {
          value: parseFloat(/([\d.]+)px/.exec(font)[1]),
          text: svg.querySelector('[role=gridcell]').drawn.text,
          label: label.getBoundingClientRect().height,
        };
      });
      assert.match(sizes.text, /^\d\.\d\d$/, `${where}, h = ${h}: a cell prints its weight`);
      assert.ok(sizes.value >= 8 && sizes.label >= 8, `${where}, h = ${h}: text ${sizes.value}px, labels ${sizes.label}px high`);
      const legends = view.figure.getByRole('note', { name: /^colour legend: weight from 0/ });
      assert.equal(await legends.count(), await view.grids.count(), `${where}, h = ${h}: one legend per map`);
      // Every thumbnail is on screen and big enough to tap.
      for (const thumb of await view.figure.getByRole('button', { name: /^head \d, columns/ }).all()) {
        const t = await thumb.boundingBox();
        assert.ok(t.x >= 0 && t.x + t.width <= (contextOptions ? 375 : 1280) && t.width >= 44 && t.height >= 44, `${where}, h = ${h}: thumbnail ${JSON.stringify(t)}`);
      }
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${where}: the page is ${overflow}px wider than the screen`);
    assert.deepEqual(problems, []);
  }
});

test('at 1280, 375 and 320 px, stepping h through 2, 4 and 8 moves nothing below the thumbnails: the map, the sums and the lesson stay put', async () => {
  // A split of fewer than 8 heads keeps the room of 8 thumbnails and of an 8-term sum (two rows
  // of thumbnails on a phone), and the focus title keeps room for the job line only h = 4 has:
  // a step that moved what follows would paint all of it again.
  for (const [where, contextOptions] of [['1280 px', undefined], ['375 px', PHONE], ['320 px', { ...PHONE, viewport: { width: 320, height: 640 } }]]) {
    const { page, problems } = await session.openPage(contextOptions ? { contextOptions } : {});
    const view = headsFigure(page);
    await view.figure.scrollIntoViewIfNeeded();
    const places = [];
    for (const k of [1, 2, 3, 2, 1]) {
      await setK(page, view, k);
      places.push(await view.figure.evaluate((figure) => {
        const top = (selector) => Math.round(figure.querySelector(selector).getBoundingClientRect().top - figure.getBoundingClientRect().top);
        const group = figure.querySelector('[role=group][aria-label^="pick a head"]');
        const buttons = [...group.querySelectorAll('button')];
        // Buttons this step made: none after the first, whose split made all 8 places.
        window.seenThumbnails ??= new Set();
        const made = buttons.filter((button) => !window.seenThumbnails.has(button)).length;
        buttons.forEach((button) => window.seenThumbnails.add(button));
        const shown = buttons.filter((button) => button.checkVisibility({ visibilityProperty: true }));
        return { h: shown.length, made,
          read: buttons.filter((button) => !button.hidden && button.getAttribute('aria-hidden') !== 'true').length,
          map: top('.heads-focus'), checks: top('.heads-checks'), count: top('.heads-count'),
          height: Math.round(figure.getBoundingClientRect().height) };
      }));
    }
    assert.deepEqual(places.map((p) => p.h), [2, 4, 8, 4, 2], `${where}: thumbnails seen`);
    assert.deepEqual(places.map((p) => p.read), [2, 4, 8, 4, 2], `${where}: thumbnails a screen reader finds`);
    assert.deepEqual(places.map((p) => p.made), [8, 0, 0, 0, 0], `${where}: a step makes no thumbnail`);
    for (const place of places.slice(1)) {
      assert.deepEqual({ ...place, h: 0, read: 0, made: 0 }, { ...places[0], h: 0, read: 0, made: 0 }, `${where}: h = ${place.h} against h = 2`);
    }
    // The kept room is empty to the eye and to a screen reader: every seen term is a number, and
    // the sum reads as the h terms and their total.
    const sum = await view.example.evaluate((output) => output.textContent.replace(/\s+/g, ' ').trim());
    assert.match(sum, /^\d+\.\d{3} [+\u2212] \d+\.\d{3} = \d+\.\d{3}$/, `${where}: h = 2 reads "${sum}"`);
    assert.equal(await view.figure.getByRole('button', { name: /^head \d, columns/ }).count(), 2, `${where}: two buttons at h = 2`);
    assert.deepEqual(problems, []);
  }
});

test('the prose\'s "show h = 4" link is one step: it sets h = 4 without reloading the page', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  await page.evaluate(() => { window.notReloaded = true; });
  const link = page.locator('#heads').getByRole('link', { name: 'show h = 4' });
  assert.equal(await link.count(), 1);
  await link.click();
  assert.equal(await view.slider.getAttribute('aria-valuetext'), '4');
  assert.equal(await view.figure.getByRole('button', { name: /^head \d, columns/ }).count(), 4);
  assert.equal(await page.evaluate(() => window.notReloaded), true);
  await page.waitForFunction(() => location.search.includes('heads.k=2'));
  assert.deepEqual(problems, []);
});

test('the full-width raw scores are the sums of the slices\' at every h', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  const full = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 1).heads[0].rawScores.data[7 * 8 + 1];
  for (const k of [0, 1, 2, 3]) {
    await setK(page, view, k);
    const difference = Number(await view.sumCheck.innerText());
    assert.ok(Number.isFinite(difference) && difference < 0.0005, `h = ${2 ** k}: largest difference ${difference}`);

    // The worked "it" → "cat" sum: h terms that add up to the full-width score.
    const text = (await view.example.innerText()).replace(/\u2212 /g, '-').replace(/\u2212/g, '-').replace(/\+ /g, '+');
    const [left, right] = text.split('=').map((part) => part.trim());
    const terms = left.split(/\s+/).map(Number);
    assert.equal(terms.length, 2 ** k, `${2 ** k} terms in "${left}"`);
    const sum = terms.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - Number(right)) < 0.002, `${left} = ${right}`);
    assert.ok(Math.abs(Number(right) - full) < 0.0005, `the sum ${right} is the full-width score ${full}`);
  }
  assert.deepEqual(problems, []);
});

test('back at an h shown before, the picked head reads as it did: its weights, its note, the sum and its picture', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  const large = view.grids.nth(1);
  const note = view.figure.locator('.heads-focus .heads-note').first();
  const reading = async () => ({
    weights: await rowWeights(large, '“it” (7)'),
    note: await note.innerText(),
    sum: await view.example.innerText(),
    // Shown again, the large map is put back from the drawing it kept (heatmap's recall):
    // every pixel as when it was first painted.
    pixels: await large.evaluate((grid) => grid.parentElement.querySelector('canvas.heatmap-canvas').toDataURL()),
  });
  // The cells' names follow a drawing a frame later (after its paint): read once they settle.
  const settled = () => page.evaluate(() => new Promise((done) => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)));
  }));
  await setK(page, view, 2);
  await pick(view, 3);
  await settled();
  const first = await reading();
  // The core's own numbers for head 3 of 4, row "it".
  const expected = lab.multiHead(toy.X, toy.WQ, toy.WK, toy.WV, toy.WO, 4).heads[3].weights;
  const n = toy.tokens.length;
  assert.equal(first.weights.length, n);
  first.weights.forEach((w, j) => assert.ok(Math.abs(w - expected.data[7 * n + j]) < 5e-5, `weight ${j}: ${w}`));
  await view.slider.focus();
  await page.keyboard.press('ArrowRight'); // h = 8: head 3 of 8
  await settled();
  const atEight = await reading();
  assert.notEqual(atEight.sum, first.sum);
  assert.notEqual(atEight.pixels, first.pixels);
  await page.keyboard.press('ArrowLeft'); // h = 4 again
  await settled();
  assert.deepEqual(await reading(), first);
  assert.deepEqual(problems, []);
});

test('the parameter count is 4·d² at every h: 1 048 576 for d_model = 512', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  for (const k of [0, 1, 2, 3, 4]) {
    const h = 2 ** k;
    await setK(page, view, k);
    assert.equal(digits(await view.paperCount.innerText()), 1048576, `h = ${h}`);
    assert.equal(digits(await view.toyCount.innerText()), 16384, `h = ${h}: 4 × 64²`);
    const breakdown = await view.paperCount.locator('xpath=..').innerText();
    assert.match(breakdown, new RegExp(`${h} heads? × 3 × \\(512 × ${512 / h}\\)`), breakdown);
    assert.match(breakdown.replace(/\u2009/g, ''), /786432 \+ 262144/, breakdown);
  }
  assert.deepEqual(problems, []);
});

test('h = 1 shows only the full-width map', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  await setK(page, view, 0);
  assert.equal(await view.grids.count(), 1);
  assert.match(await view.figure.innerText(), /nothing to split/);
  assert.equal(Number(await view.sumCheck.innerText()), 0);
  assert.deepEqual(problems, []);
});

test('Table 3 rows (A) and (B) are charted with the paper\'s hedge', async () => {
  const { page, problems } = await session.openPage();
  const view = headsFigure(page);
  const plotA = view.figure.getByRole('img', { name: /^Table 3 row \(A\)/ });
  const plotB = view.figure.getByRole('img', { name: /^Table 3 row \(B\)/ });
  assert.match(await plotA.getAttribute('aria-label'), /h = 1: 24\.9, h = 4: 25\.5, h = 8: 25\.8, h = 16: 25\.8, h = 32: 25\.4/);
  assert.match(await plotB.getAttribute('aria-label'), /d\u2096 = 16: 25\.1, d\u2096 = 32: 25\.4, d\u2096 = 64: 25\.8/);
  assert.equal(await plotA.locator('circle').count(), 5);
  assert.equal(await plotB.locator('circle').count(), 3);
  // Only what the paper measured: each point labelled with its value, nothing drawn between
  // them, and no marker putting the toy's h on the paper's axis.
  const labels = (plot) => plot.locator('.plot-point-label').allTextContents();
  assert.deepEqual(await labels(plotA), ['24.9', '25.5', '25.8', '25.8', '25.4']);
  assert.deepEqual(await labels(plotB), ['25.1', '25.4', '25.8']);
  for (const plot of [plotA, plotB]) {
    const drawn = await plot.locator('path.plot-line').evaluateAll((paths) => paths.map((p) => p.getAttribute('d')));
    assert.ok(drawn.every((d) => !d), `no line between the measured points: ${drawn}`);
    assert.equal(await plot.locator('.plot-marker').getAttribute('visibility'), 'hidden');
  }
  // Read as a learner reads it: scrolled to (off screen, the part's rendering is skipped).
  await scrollToFigure(page, '#figure-heads .heads-paper');
  const paper = view.figure.locator('.heads-paper');
  assert.doesNotMatch(await paper.innerText(), /here/);
  const text = await paper.innerText();
  assert.match(text, /not monotonically better/);
  assert.match(text, /narrow keys hurt/);
  assert.match(text, /0\.9 BLEU behind the best/);
  assert.match(await view.figure.locator('figcaption').innerText(), /quoted from the paper/);
  assert.deepEqual(problems, []);
});

test('a link with heads.k = 3 opens eight slices, and the figure fits a 375 px phone', async () => {
  const { page, problems } = await session.openPage({ search: '?heads.k=3', contextOptions: PHONE });
  const view = headsFigure(page);
  assert.equal(await view.slider.getAttribute('aria-valuetext'), '8');
  assert.equal(await view.grids.count(), 2);
  assert.equal(await view.figure.getByRole('button', { name: /^head \d, columns/ }).count(), 8);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const box = await view.figure.boundingBox();
  assert.ok(box.width <= 375, `figure ${box.width}px wide`);
  assert.deepEqual(problems, []);
});

test('as an <attention-figure> on a host page, the figure leaves the host\'s own heads links alone', async () => {
  // A course page with a link of the same shape as the lesson's "show h = 4": it is the host's
  // link, to follow as the host wrote it, however many times the figure is mounted and removed.
  const { page, context, problems } = await openHost(session,
    '<p><a id="host-link" href="#elsewhere" data-heads-k="2">the host\'s link</a></p><div id="slot"></div><script src="attention-figure.js"></script>');
  for (let round = 0; round < 3; round += 1) {
    await page.evaluate(() => {
      const figure = document.createElement('attention-figure');
      figure.setAttribute('name', 'heads');
      document.querySelector('#slot').replaceChildren(figure);
    });
    await elementsReady(page);
  }
  const prevented = await page.evaluate(() => {
    const link = document.querySelector('#host-link');
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    return event.defaultPrevented;
  });
  assert.equal(prevented, false, 'a figure took over the host\'s link (preventDefault)');
  assert.equal(await page.evaluate(() => location.hash), '#elsewhere');
  const k = await page.locator('attention-figure').evaluate((element) => element.shadowRoot.querySelector('[aria-valuetext]')?.getAttribute('aria-valuetext'));
  assert.equal(k, '2', 'the figure kept its own h = 2, untouched by the host\'s link');
  assert.deepEqual(problems, []);
  await context.close();
});
