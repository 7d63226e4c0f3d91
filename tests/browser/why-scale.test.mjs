// The "Why divide by √d_k" figure, checked through what a learner sees: the bars of the two
// small examples, the gradient factors, and the four averages read at the marker of the width
// experiment, against the lesson's numbers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();

function whyScaleFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByLabel('marker at dₖ = 2^k') });
  const bars = (name) => figure.getByRole('list', { name, exact: true }).getByRole('listitem');
  return {
    figure,
    width: figure.getByLabel('key width dₖ'),
    keys: figure.getByLabel('keys m', { exact: true }),
    marker: figure.getByLabel('marker at dₖ = 2^k'),
    twoRaw: bars('two keys, softmax of the raw scores'),
    twoScaled: bars('two keys, softmax after dividing by √dₖ'),
    fourRaw: bars('four keys, softmax of the raw scores'),
    fourScaled: bars('four keys, softmax after dividing by √dₖ'),
    twoRawFactor: figure.getByLabel('two keys: p(1−p) of the top weight, raw'),
    twoScaledFactor: figure.getByLabel('two keys: p(1−p) of the top weight, scaled'),
    twoRatio: figure.getByLabel('two keys: gradient factor grows by'),
    unscaledMax: figure.getByLabel(/^unscaled mean largest weight/),
    scaledMax: figure.getByLabel(/^scaled mean largest weight/),
    unscaledEntropy: figure.getByLabel(/^unscaled mean entropy/),
    scaledEntropy: figure.getByLabel(/^scaled mean entropy/),
    trials: figure.getByText(/random queries per width/),
  };
}

async function barValues(items) {
  const names = await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')));
  return names.map(trailingNumber);
}

/** Waits until the full run is in (it is computed one width per task, behind a preview). */
async function settled(view) {
  await view.figure.getByText(/^Averages over T = 2000/).waitFor();
}

/** The four numbers at the marker, as the page prints them, once the full run is in. */
async function atMarker(view) {
  await settled(view);
  return {
    unscaledMax: Number(await view.unscaledMax.innerText()),
    scaledMax: Number(await view.scaledMax.innerText()),
    unscaledEntropy: Number.parseFloat(await view.unscaledEntropy.innerText()),
    scaledEntropy: Number.parseFloat(await view.scaledEntropy.innerText()),
  };
}

function near(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: got ${actual}, expected about ${expected}`);
}

test('the section loads under the CSP, in the lesson order, with no console errors', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  await assert.doesNotReject(view.figure.waitFor());
  assert.equal(await page.getByRole('heading', { level: 2, name: /Why divide by/ }).count(), 1);
  const order = await page.evaluate(() => [...document.querySelectorAll('main > section')].map((s) => s.id));
  const here = order.indexOf('why-scale');
  assert.ok(here > order.indexOf('eight-tokens'), `sections: ${order.join(', ')}`);
  if (order.includes('heads')) assert.ok(here < order.indexOf('heads'), `sections: ${order.join(', ')}`);
  assert.match(await page.locator('#why-scale').innerText(), /initiali[sz]ed/, 'the footnote-4 caveat is stated');
  assert.deepEqual(problems, []);
});

test('two keys at d_k = 64: 0.9997/0.0003 raw, 0.731/0.269 scaled, gradient factors 0.0003 and 0.197', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  assert.equal(await view.width.inputValue(), '64');

  const raw = await barValues(view.twoRaw);
  near(raw[0], 0.9997, 0.00005, 'raw top weight');
  near(raw[1], 0.0003, 0.00005, 'raw other weight');
  const scaled = await barValues(view.twoScaled);
  near(scaled[0], 0.731, 0.0005, 'scaled top weight');
  near(scaled[1], 0.269, 0.0005, 'scaled other weight');
  assert.match(await view.figure.getByText(/^raw scores \(8, 0\)/).innerText(), /8, 0/);

  near(magnitudeOf(await view.twoRawFactor.innerText()).value, 0.000335, 0.000005, 'raw p(1−p), 3.35×10⁻⁴');
  near(Number(await view.twoScaledFactor.innerText()), 0.197, 0.0005, 'scaled p(1−p)');
  const ratio = Number.parseFloat(await view.twoRatio.innerText());
  assert.ok(ratio > 550 && ratio < 650, `the gradient factor grows about 600 times, got ${ratio}`);
  assert.deepEqual(problems, []);
});

test('four keys at d_k = 64: a near-certain pick raw, 0.711 and 0.096 scaled', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  const rawTop = (await view.fourRaw.first().getAttribute('aria-label'));
  assert.match(rawTop, /^key 1: 0\.99999/, rawTop);
  const scaled = await barValues(view.fourScaled);
  near(scaled[0], 0.711, 0.0005, 'scaled top weight');
  for (const other of scaled.slice(1)) near(other, 0.096, 0.0005, 'scaled other weight');
  assert.deepEqual(problems, []);
});

test('a narrower key width softens the raw scores; the scaled weights do not move', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  await view.width.selectOption('4');
  const raw = await barValues(view.twoRaw);
  assert.ok(raw[0] < 0.9 && raw[0] > 0.85, `raw top weight at d_k = 4 is ${raw[0]}`);
  const scaled = await barValues(view.twoScaled);
  near(scaled[0], 0.731, 0.0005, 'scaled top weight at d_k = 4');
  await page.waitForFunction(() => location.search.includes('why-scale.dk=4'));
  assert.deepEqual(problems, []);
});

test('the marker at k = 6 reads about 0.86 unscaled, 0.32 and 1.93 nats scaled', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '10');
  assert.match(await view.marker.getAttribute('aria-valuetext'), /64/);
  const values = await atMarker(view);
  near(values.unscaledMax, 0.86, 0.01, 'unscaled mean largest weight at 64');
  near(values.scaledMax, 0.32, 0.01, 'scaled mean largest weight at 64');
  near(values.scaledEntropy, 1.93, 0.01, 'scaled mean entropy at 64');
  assert.ok(values.unscaledEntropy < 0.5, `unscaled entropy at 64 is ${values.unscaledEntropy}`);
  assert.match(await view.unscaledMax.evaluate((el) => el.labels[0].textContent), /dₖ = 64/);
  assert.match(await view.trials.innerText(), /T = 2000/);
  assert.deepEqual(problems, []);
});

test('moving the marker: about 0.49 at d_k = 4 and 0.97 at d_k = 1024, scaled stays flat', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  await view.marker.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowLeft');
  assert.match(await view.marker.getAttribute('aria-valuetext'), /k = 2/);
  let values = await atMarker(view);
  near(values.unscaledMax, 0.49, 0.01, 'unscaled mean largest weight at 4');
  // At d_k ≤ 8, |q|²/d_k still fluctuates, so the scaled weight sits a little under 0.32 (0.29–0.31).
  near(values.scaledMax, 0.31, 0.02, 'scaled mean largest weight at 4');
  near(values.scaledEntropy, 1.95, 0.03, 'scaled mean entropy at 4'); // and the entropy a little over 1.93 (1.94–1.97)
  assert.match(await view.unscaledMax.evaluate((el) => el.labels[0].textContent), /dₖ = 4$/);

  await page.keyboard.press('End');
  assert.match(await view.marker.getAttribute('aria-valuetext'), /1024/);
  values = await atMarker(view);
  near(values.unscaledMax, 0.97, 0.01, 'unscaled mean largest weight at 1024');
  near(values.scaledMax, 0.32, 0.01, 'scaled mean largest weight at 1024');
  assert.ok(values.unscaledEntropy < 0.1, `unscaled entropy collapses, got ${values.unscaledEntropy}`);
  await page.waitForFunction(() => location.search.includes('why-scale.marker=10'));
  assert.deepEqual(problems, []);
});

test('changing the number of keys recomputes the curves', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  const before = await atMarker(view);
  await view.keys.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '11');
  await view.figure.getByText(/^Averages over T = 2000 .* 11 random keys/).waitFor();
  const after = await atMarker(view);
  assert.notDeepEqual(after, before, 'the numbers at the marker change');
  assert.ok(after.scaledMax < before.scaledMax, 'one more key takes a share of the weight');
  assert.ok(after.scaledEntropy > before.scaledEntropy, 'more keys, more entropy');
  assert.match(await view.trials.innerText(), /T = 2000 .* 11 random keys/);

  await page.keyboard.press('End');
  const many = await atMarker(view);
  assert.ok(many.scaledMax < before.scaledMax, `64 keys share the weight more thinly (${many.scaledMax})`);
  // The flat row follows m (1/64 and ln 64), while the names stay put: the legend names the
  // flat curves by their formulas, so a press lays out only the numbers.
  const flat = view.figure.getByLabel('every key equal (weight 1/m, entropy ln m)');
  await page.waitForFunction(() => /0\.016, 4\.159 nats/.test(document.querySelector('#figure-why-scale .why-scale-readouts').textContent));
  assert.equal(await flat.innerText(), '0.016, 4.159 nats');
  const legends = await view.figure.locator('.why-scale-plots .plot-legend').allInnerTexts();
  assert.match(legends[0], /every key equal \(1\/m\)/);
  assert.match(legends[1], /every key equal \(ln m\)/);
  assert.deepEqual(problems, []);
});

test('while a keys drag is in progress a cheaper preview is shown; letting go computes T = 2000', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  await settled(view);
  // A drag fires input events without change; release fires change.
  await view.keys.evaluate((input) => {
    input.value = String(Number(input.value) + 20);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => /Preview from T = \d+/.test(document.querySelector('#figure-why-scale').textContent));
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '30');
  await view.keys.evaluate((input) => input.dispatchEvent(new Event('change', { bubbles: true })));
  await view.figure.getByText(/^Averages over T = 2000 .* 30 random keys/).waitFor({ timeout: 5000 });
  assert.deepEqual(problems, []);
});

test('a drag back over settings already run shows their full run, or the same preview', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  await settled(view);
  const note = () => view.figure.locator('.why-scale-trials').innerText();
  const readout = () => view.unscaledMax.innerText();
  const start = Number(await view.keys.inputValue()); // 10 keys, its full run done
  // A drag: input events without change (the slider's own value, not the number of keys).
  const drag = (steps) => view.keys.evaluate((input, value) => {
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, start + steps);
  const frame = () => page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => setTimeout(done, 0)); }));
  const fullAt10 = await readout();
  await drag(20);
  await frame();
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '30');
  const previewAt30 = await readout();
  const noteAt30 = await note();
  assert.match(noteAt30, /^Preview from T = 107 random queries per width while the slider moves/);
  await drag(21);
  await frame();
  assert.notEqual(await readout(), previewAt30, 'another setting, other numbers');
  // Back to 30: its preview again, the same numbers; back to 10: its full run, not a preview.
  await drag(20);
  await frame();
  assert.equal(await readout(), previewAt30);
  assert.equal(await note(), noteAt30);
  await drag(0);
  await frame();
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '10');
  assert.equal(await readout(), fullAt10);
  assert.match(await note(), /^Averages over T = 2000 random queries per width, each against 10 random keys/);
  assert.deepEqual(problems, []);
});

test('the preview of a neighbouring setting, made ahead after a frame, reads as one made on the spot', async () => {
  // At m = 30 the figure computes the previews of 29 and 31 after its frame; a step to 31 then
  // shows that one. A second page jumps from 10 to 31 directly, computing it on the spot.
  const readAt31 = async (path) => {
    const { page, problems } = await session.openPage();
    const view = whyScaleFigure(page);
    await settled(view);
    for (const value of path) {
      await view.keys.evaluate((input, v) => {
        input.value = String(v - 2); // the slider's positions start at m = 2
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, value);
      await page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => setTimeout(done, 50)); }));
    }
    assert.equal(await view.keys.getAttribute('aria-valuetext'), '31');
    const values = await Promise.all([view.unscaledMax.innerText(), view.figure.locator('.why-scale-trials').innerText()]);
    assert.deepEqual(problems, []);
    return values;
  };
  const [aheadValue, aheadNote] = await readAt31([30, 31]);
  const [spotValue, spotNote] = await readAt31([31]);
  assert.match(aheadNote, /^Preview from T = 103 random queries per width/);
  assert.equal(aheadNote, spotNote);
  assert.equal(aheadValue, spotValue);
});

test('at 375 and 320 px the marker\'s value stays inside the figure, at its longest, "1024 (k = 10)"', async () => {
  for (const width of [375, 320]) {
    const { page, problems } = await session.openPage({ contextOptions: { ...PHONE, viewport: { width, height: 667 } } });
    const view = whyScaleFigure(page);
    await view.marker.focus();
    await page.keyboard.press('End');
    const value = view.marker.locator('xpath=ancestor::div[contains(@class, "control-slider")]').locator('.control-value > span');
    assert.equal(await value.innerText(), '1024 (k = 10)');
    const [valueBox, bodyBox] = await Promise.all([value.boundingBox(), view.figure.locator('.figure-body').boundingBox()]);
    assert.ok(valueBox.x + valueBox.width <= bodyBox.x + bodyBox.width + 0.5,
      `${width} px: the value ends at ${valueBox.x + valueBox.width}px, the figure at ${bodyBox.x + bodyBox.width}px`);
    assert.deepEqual(problems, []);
  }
});

test('a link restores keys, marker and width', async () => {
  const { page, problems } = await session.openPage({ search: '?why-scale.keys=20&why-scale.marker=3&why-scale.dk=256' });
  const view = whyScaleFigure(page);
  assert.equal(await view.keys.getAttribute('aria-valuetext'), '20');
  assert.match(await view.marker.getAttribute('aria-valuetext'), /^8 \(k = 3\)/);
  assert.equal(await view.width.inputValue(), '256');
  assert.match(await view.unscaledMax.evaluate((el) => el.labels[0].textContent), /dₖ = 8$/);
  assert.deepEqual(problems, []);
});

test('the figure fits a 375 px phone screen', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  const view = whyScaleFigure(page);
  const box = await view.figure.boundingBox();
  assert.ok(box.width <= 375, `figure ${box.width}px wide`);
  const plot = await view.figure.getByRole('img', { name: /mean largest weight against key width/ }).boundingBox();
  assert.ok(plot.x >= 0 && plot.x + plot.width <= 375, 'the plot stays on screen');
  assert.deepEqual(problems, []);
});

test('off screen, the plots wait, and draw the newest curves when scrolled to', async () => {
  const { page, problems } = await session.openPage();
  const view = whyScaleFigure(page);
  const entropyPlot = view.figure.getByRole('img', { name: /mean entropy in nats against key width/ });
  const flatLine = () => entropyPlot.locator('path.plot-line.plot-series-2').getAttribute('d');
  await view.keys.focus();
  await page.keyboard.press('Home'); // m = 2: the flat row's entropy is ln 2
  await entropyPlot.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /Averages over T = 2000 .* 2 random keys/.test(document.querySelector('#figure-why-scale').textContent));
  const atTwo = await flatLine();
  // With the plots scrolled out of view (the slider's own row kept in it), a press changes the
  // numbers and the legend's data at once, and the curves not yet.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await view.keys.evaluate((input) => input.focus({ preventScroll: true }));
  assert.equal(await entropyPlot.evaluate((svg) => svg.getBoundingClientRect().top > innerHeight), true, 'the plot is below the screen');
  await page.keyboard.press('End'); // m = 64: ln 64
  await page.waitForFunction(() => /4\.159 nats/.test(document.querySelector('#figure-why-scale .why-scale-readouts').textContent));
  assert.equal(await flatLine(), atTwo, 'off screen, the curve waits');
  // Brought into view, the plot draws the newest curves: the flat line moves up to ln 64.
  await entropyPlot.scrollIntoViewIfNeeded();
  await page.waitForFunction((old) => {
    const svg = document.querySelector('#figure-why-scale svg[aria-label^="mean entropy in nats"]');
    return svg.querySelector('path.plot-line.plot-series-2').getAttribute('d') !== old;
  }, atTwo);
  const y = (d) => Number(/^M[\d.]+,([\d.]+)/.exec(d)[1]);
  const now = await flatLine();
  assert.ok(y(now) < y(atTwo), `ln 64 sits higher than ln 2: ${now} vs ${atTwo}`);
  assert.deepEqual(problems, []);
});

// ---- large widths: no Infinity, no zero, no false digits ------------------------------------

/** "4.27×10²⁶×" → 4.27e26 (the page prints large and tiny magnitudes with a power of ten). */
function magnitudeOf(text) {
  const normal = text.replaceAll('\u2212', '-').replaceAll('\u207b', '-')
    .replace(/[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]/g, (c) => String('\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079'.indexOf(c)));
  const match = /^(-?\d+(?:\.\d+)?)(?:\u00d710(-?\d+))?/.exec(normal.trim());
  assert.ok(match, `no magnitude in "${text}"`);
  return { value: Number(match[1]) * 10 ** Number(match[2] ?? 0), mantissa: match[1], exponent: Number(match[2] ?? 0) };
}

/** ln(p(1−p)) of the top weight of softmax([s, 0, …, 0]) with `others` zeros, in closed form. */
function logTopFactor(s, others) {
  const rest = Math.log(others) - s; // ln(others · e^−s)
  const log1pRest = Math.log1p(Math.exp(rest));
  return -log1pRest + (rest - log1pRest); // ln p + ln(1 − p)
}

test('Part A at d_k = 256 and 1024: ratios with 3 significant digits and a power of ten, never Infinity or 0', async () => {
  const { page, problems } = await session.openPage({ search: '?why-scale.dk=1024' });
  const view = whyScaleFigure(page);
  const figure = view.figure;
  const readout = (name) => figure.getByLabel(name, { exact: true });
  for (const [dk, cases] of [['1024', [['two', 1, 32], ['four', 3, 64]]], ['256', [['two', 1, 16], ['four', 3, 32]]]]) {
    if (dk === '256') await view.width.selectOption('256');
    for (const [name, others, rawTop] of cases) {
      const ratioText = await readout(`${name} keys: gradient factor grows by`).innerText();
      const rawText = await readout(`${name} keys: p(1−p) of the top weight, raw`).innerText();
      assert.doesNotMatch(ratioText + rawText, /Infinity|NaN/, `${name} keys at ${dk}`);
      const raw = magnitudeOf(rawText);
      assert.ok(raw.value > 0, `${name} keys at ${dk}: raw p(1−p) is ${rawText}, not 0`);
      const ratio = magnitudeOf(ratioText);
      assert.match(ratio.mantissa, /^\d\.\d\d$/, `${name} keys at ${dk}: three significant digits, got ${ratioText}`);
      const expected = (logTopFactor(rawTop / Math.sqrt(Number(dk)), others) - logTopFactor(rawTop, others)) / Math.LN10;
      assert.equal(ratio.exponent, Math.floor(expected), `${name} keys at ${dk}: ${ratioText}`);
      assert.ok(Math.abs(ratio.value / 10 ** expected - 1) < 0.006, `${name} keys at ${dk}: ${ratioText} against 10^${expected}`);
      const expectedRaw = logTopFactor(rawTop, others) / Math.LN10;
      assert.ok(Math.abs(raw.value / 10 ** expectedRaw - 1) < 0.006, `${name} keys at ${dk}: raw ${rawText} against 10^${expectedRaw}`);
    }
  }
  // The figure must print these two exactly: 1.55×10¹³ (two keys at 1024) and 5.41×10¹² (four
  // keys at 256), three significant digits with a power of ten, never Infinity.
  assert.equal(await readout('four keys: gradient factor grows by').innerText(), '5.41×10¹²×');
  await view.width.selectOption('1024');
  assert.equal(await readout('two keys: gradient factor grows by').innerText(), '1.55×10¹³×');
  assert.deepEqual(problems, []);
});

/**
 * Number runs that carry digits float64 does not have: a decimal with more than 9 significant
 * digits (the page's finest probability has 9 decimals), or a whole number past 2^53, where
 * float64 stops holding every integer (thin-space groups joined: "5 409 058 767 149").
 */
function falseDigitRuns(text) {
  const runs = text.match(/\d(?:[\d.]|\u2009(?=\d{3}))*/g) ?? [];
  return runs.map((run) => run.replaceAll('\u2009', '')).filter((run) => {
    if (run.includes('.')) return run.replace('.', '').replace(/^0+/, '').length > 9;
    return run.length > 16 || Number(run) > 2 ** 53;
  });
}

test('no readout on the page shows Infinity, NaN or a run of false digits, at the extremes of its controls', async () => {
  const searches = [
    '',
    '?why-scale.dk=1024&temperature.tau=0.01&heads.k=3&by-hand.hide=0&by-hand.qx=-4&by-hand.qy=4&cost.n=1000000&cost.d=4096&cost.h=64',
    '?why-scale.dk=256&why-scale.keys=64&why-scale.marker=10&temperature.tau=100&heads.k=0&cost.n=1&cost.d=1&cost.h=1&cost.bytes=8',
  ];
  for (const search of searches) {
    const { page, problems } = await session.openPage({ search });
    const text = await page.evaluate(() => {
      // Readouts, labels, captions and accessible names; not code listings, links or citations
      // (an arXiv number such as 1706.03762 is not a measurement).
      const main = document.querySelector('main').cloneNode(true);
      for (const node of main.querySelectorAll('pre, code, a, cite, math, .references')) node.remove();
      const attributes = [...main.querySelectorAll('[aria-label], [aria-valuetext], [title]')]
        .flatMap((node) => ['aria-label', 'aria-valuetext', 'title'].map((name) => node.getAttribute(name) ?? ''));
      const texts = [];
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) texts.push(walker.currentNode.data);
      return `${texts.join('\n')}\n${attributes.join('\n')}`;
    });
    assert.doesNotMatch(text, /Infinity|NaN/, `${search || 'default'}: a readout shows Infinity or NaN`);
    assert.deepEqual(falseDigitRuns(text), [], `${search || 'default'}: digit runs longer than the computation holds`);
    assert.deepEqual(problems, [], search);
  }
});
