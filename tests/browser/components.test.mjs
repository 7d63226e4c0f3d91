// The shared primitives rendered on their own in a blank page: the heat map's masked
// cells, in-place recolouring, keyboard movement and printed values switched off; the plot's series, legend and marker;
// the slider's label, output and log mapping; a list's items updated in place. Bundled on the fly with esbuild.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { useBrowser } from './harness.mjs';

const session = useBrowser();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function bundleLib() {
  const result = await esbuild.build({
    stdin: {
      contents: `
        export { createHeatmap } from './web/src/lib/charts/heatmap.js';
        export { createPlot } from './web/src/lib/charts/plot.js';
        export { createSlider } from './web/src/lib/controls/slider.js';
        export { createBars } from './web/src/lib/charts/bars.js';
        export { setChildTexts } from './web/src/lib/dom/elements.js';`,
      resolveDir: ROOT,
    },
    bundle: true, format: 'iife', globalName: 'lib', write: false, logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

async function blankPage() {
  const context = await session.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setContent('<!doctype html><html lang="en"><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: await bundleLib() });
  return { page, context, errors };
}

test('heat map: masked cells, in-place update, keyboard movement', async () => {
  const { page, context, errors } = await blankPage();
  const result = await page.evaluate(() => {
    const map = window.lib.createHeatmap(document.getElementById('root'), {
      rowLabels: ['a', 'b'], colLabels: ['x', 'y', 'z'], label: 'test map', rowTitle: 'query', colTitle: 'key',
    });
    map.update({ rows: 2, cols: 3, data: [0.1, null, 0.9, 0.5, 0.25, Number.NaN] });
    const cells = [...document.querySelectorAll('[role=gridcell]')];
    const before = cells.map((c) => c.getAttribute('aria-label'));
    const fillBefore = cells[0].drawn.fill; // as the canvas drew it
    const maskedFill = cells[1].drawn.fill;
    map.update([[0.9, 0.1, 0.0], [0.2, 0.3, 0.4]]);
    const same = cells.every((c, i) => c === document.querySelectorAll('[role=gridcell]')[i]);
    map.highlightRow(1);
    return {
      before, same, fillBefore, maskedFill, fillAfter: cells[0].drawn.fill,
      selected: document.querySelector('[role=row][aria-selected=true]').getAttribute('aria-label'),
      tabStops: cells.filter((c) => c.getAttribute('tabindex') === '0').length,
    };
  });
  assert.equal(result.before[1], 'query a, key y: masked (no weight)');
  assert.equal(result.before[5], 'query b, key z: masked (no weight)');
  assert.equal(result.before[0], 'query a, key x: 0.1000');
  assert.ok(result.same, 'update() keeps the same cell elements');
  assert.match(result.fillBefore, /^#[0-9a-f]{6}$/);
  assert.equal(result.maskedFill, null, 'a masked cell is left unpainted');
  assert.notEqual(result.fillBefore, result.fillAfter, 'update() recolours');
  assert.equal(result.selected, 'query b');
  assert.equal(result.tabStops, 1, 'one tab stop (roving tabindex)');

  await page.getByRole('gridcell', { name: /query b, key x/ }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp'); // stays on the first row
  const focused = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.equal(focused, 'query a, key y: 0.1000');
  assert.match(await page.locator('.heatmap-readout').innerText(), /query a, key y: 0\.1000/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('heat map: new cell names follow the frame that shows new colours, and come at once while the focus is in the grid', async () => {
  const { page, context, errors } = await blankPage();
  const result = await page.evaluate(async () => {
    const map = window.lib.createHeatmap(document.getElementById('root'), {
      rowLabels: ['a', 'b'], colLabels: ['x', 'y'], label: 'test map', rowTitle: 'query', colTitle: 'key',
    });
    const cells = [...document.querySelectorAll('[role=gridcell]')];
    const name = () => cells[0].getAttribute('aria-label');
    const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    map.update([[0.1, 0.9], [0.5, 0.5]]);
    const first = name(); // the first names are written at once
    map.update([[0.2, 0.8], [0.5, 0.5]]);
    const drawnAtOnce = cells[0].drawn.text;
    const beforePaint = name();
    map.update([[0.3, 0.7], [0.5, 0.5]]); // a second step before the frame: one rename, the latest values
    await afterPaint();
    const afterThePaint = name();
    cells[1].focus();
    map.update([[0.4, 0.6], [0.5, 0.5]]);
    const focusedAtOnce = name();
    return { first, drawnAtOnce, beforePaint, afterThePaint, focusedAtOnce };
  });
  assert.equal(result.first, 'query a, key x: 0.1000');
  assert.equal(result.drawnAtOnce, '0.20', 'the canvas shows the new value at once');
  assert.equal(result.beforePaint, 'query a, key x: 0.1000', 'the name waits for the frame');
  assert.equal(result.afterThePaint, 'query a, key x: 0.3000', 'and then says the latest value');
  assert.equal(result.focusedAtOnce, 'query a, key x: 0.4000', 'with the focus in the grid, at once');
  assert.deepEqual(errors, []);
  await context.close();
});

test('heat map: printed values switch off and on, the cells keep their names and size', async () => {
  const { page, context, errors } = await blankPage();
  const result = await page.evaluate(() => {
    const root = document.getElementById('root');
    const shown = window.lib.createHeatmap(root, { rowLabels: ['a'], colLabels: ['x', 'y'], label: 'shown' });
    const bare = window.lib.createHeatmap(root, { rowLabels: ['a'], colLabels: ['x', 'y'], label: 'bare', showValues: false });
    for (const map of [shown, bare]) map.update([[0.25, 0.75]]);
    const state = (map) => {
      const cells = [...map.element.querySelectorAll('[role=gridcell]')];
      const cell = cells[0];
      return {
        visible: cells.some((c) => c.drawn.text),
        texts: cells.map((c) => c.drawn.text),
        name: cell.getAttribute('aria-label'),
        size: cell.getAttribute('width'),
      };
    };
    const before = [state(shown), state(bare)];
    shown.showValues(false);
    bare.showValues(true);
    return { before, after: [state(shown), state(bare)] };
  });
  const [shown, bare] = result.before;
  assert.equal(shown.visible, true);
  assert.equal(bare.visible, false, 'showValues: false prints no values');
  assert.deepEqual(bare.texts, ['', ''], 'nothing printed on the cells');
  assert.equal(bare.name, 'row a, column x: 0.2500', 'the cell still names its exact value');
  assert.equal(bare.size, shown.size, 'cells keep the size that holds a value');
  assert.equal(result.after[0].visible, false, 'showValues(false) hides them');
  assert.equal(result.after[1].visible, true, 'showValues(true) shows them');
  assert.deepEqual(result.after[1].texts, ['0.25', '0.75'], 'the values were kept, to show again');
  assert.equal(result.after[0].size, shown.size, 'switching values moves nothing');
  assert.deepEqual(errors, []);
  await context.close();
});

test('heat map: a bitmap repainted cell by cell or all at once matches one drawn once', async () => {
  // Changed cells are painted over their old pixels, an emptied one cleared (canvas.js): after
  // a few, nearly all and one changed cell, the pixels must be those of a map that drew the
  // final matrix once, at a pixel ratio of 2 where cell edges fall between device pixels.
  const context = await session.browser.newContext({ deviceScaleFactor: 2 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setContent('<!doctype html><html lang="en"><body><div id="a"></div><div id="b"></div></body></html>');
  await page.addScriptTag({ content: await bundleLib() });
  const result = await page.evaluate(() => {
    const n = 6;
    const matrix = (f) => ({ rows: n, cols: n, data: Array.from({ length: n * n }, (_, k) => f(k)) });
    const options = (label) => ({ rowLabels: [...'abcdef'], colLabels: [...'uvwxyz'], label });
    const stepped = window.lib.createHeatmap(document.getElementById('a'), options('stepped'));
    const once = window.lib.createHeatmap(document.getElementById('b'), options('once'));
    const first = matrix((k) => ((k * 7) % 36) / 36);
    stepped.update(first);
    const few = matrix((k) => (k % 9 === 0 ? 0.99 - first.data[k] : first.data[k])); // 4 of 36 change
    stepped.update(few);
    const final = matrix((k) => (k % 11 === 3 ? null : ((k * 5) % 36) / 36)); // nearly all change
    stepped.update(few); // nothing changes
    stepped.update(final);
    const last = matrix((k) => (k === 20 ? 0.5 : final.data[k])); // one cell changes
    stepped.update(last);
    once.update(last);
    const pixels = (id) => {
      const canvas = document.querySelector(`#${id} canvas`);
      return { size: [canvas.width, canvas.height], data: Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data) };
    };
    const a = pixels('a');
    const b = pixels('b');
    let differing = 0;
    for (let k = 0; k < a.data.length; k += 1) if (a.data[k] !== b.data[k]) differing += 1;
    const painted = a.data.filter((v, k) => k % 4 === 3 && v > 0).length;
    return { sizes: [a.size, b.size], differing, painted, total: a.data.length / 4 };
  });
  assert.deepEqual(result.sizes[0], result.sizes[1]);
  assert.ok(result.sizes[0][0] > 100, `a bitmap at ratio 2 (${result.sizes[0]})`);
  assert.ok(result.painted > result.total / 3, `the cells are painted (${result.painted} of ${result.total} pixels)`);
  assert.equal(result.differing, 0, 'the stepped map\u2019s pixels equal the map drawn once');
  assert.deepEqual(errors, []);
  await context.close();
});

test('plot: series, legend, log2 axis and marker', async () => {
  const { page, context, errors } = await blankPage();
  const result = await page.evaluate(() => {
    const plot = window.lib.createPlot(document.getElementById('root'), {
      label: 'test plot', xLabel: 'width', yLabel: 'weight', xScale: 'log2', yDomain: [0, 1],
    });
    const widths = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
    plot.update({
      series: [
        { name: 'unscaled', x: widths, y: widths.map((w) => 1 - 1 / Math.sqrt(w)) },
        { name: 'scaled', x: widths, y: widths.map(() => 0.3) },
      ],
      marker: { x: 64, label: 'd_k = 64' },
    });
    const svg = document.querySelector('svg[role=img]');
    const marker = svg.querySelector('.plot-marker');
    const markerX = Number(marker.querySelector('line').getAttribute('x1'));
    const xAxis = svg.querySelector('.plot-axes line'); // the x axis spans the plot area
    const area = [Number(xAxis.getAttribute('x1')), Number(xAxis.getAttribute('x2'))];
    plot.setMarker({ x: 4096 });
    return {
      name: svg.getAttribute('aria-label'),
      paths: svg.querySelectorAll('path.plot-line').length,
      legend: [...document.querySelectorAll('.plot-legend li')].map((li) => li.textContent),
      markerX, area,
      markerHiddenOutside: marker.getAttribute('visibility'),
      ticks: [...svg.querySelectorAll('.plot-tick')].map((t) => t.textContent),
    };
  });
  assert.equal(result.name, 'test plot');
  assert.equal(result.paths, 2);
  assert.deepEqual(result.legend, ['unscaled', 'scaled']);
  // 64 = 2^6 sits at 5/9 of the way from 2^1 to 2^10 on a log2 axis.
  const [left, right] = result.area;
  assert.ok(right - left > 300, `a plot area ${left}…${right} px wide on a desktop`);
  assert.ok(Math.abs(result.markerX - (left + (5 / 9) * (right - left))) < 0.5, `marker at ${result.markerX}, area ${left}…${right}`);
  assert.equal(result.markerHiddenOutside, 'hidden');
  assert.ok(result.ticks.includes('32') && result.ticks.includes('512'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('slider: label, printed value, log mapping, keyboard', async () => {
  const { page, context, errors } = await blankPage();
  await page.evaluate(() => {
    window.seen = [];
    window.lib.createSlider(document.getElementById('root'), {
      label: 'knob', min: 0.01, max: 100, scale: 'log', value: 1, onInput: (v) => window.seen.push(v),
    });
  });
  const knob = page.getByLabel('knob');
  assert.equal(await knob.getAttribute('aria-valuetext'), '1');
  await knob.focus();
  await page.keyboard.press('End');
  assert.equal(await page.locator('output').innerText(), '100');
  await page.keyboard.press('Home');
  assert.equal(await knob.getAttribute('aria-valuetext'), '0.01');
  assert.deepEqual(await page.evaluate(() => window.seen), [100, 0.01]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('bars: one list item per value, names carry the exact value', async () => {
  const { page, context, errors } = await blankPage();
  await page.evaluate(() => {
    const bars = window.lib.createBars(document.getElementById('root'), { labels: ['a', 'b'], label: 'test bars' });
    bars.update([0.25, 0.75], { highlight: 1 });
  });
  const items = page.getByRole('list', { name: 'test bars' }).getByRole('listitem');
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['a: 0.2500', 'b: 0.7500']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('setChildTexts: a list keeps its items, gets their new texts, and grows or shrinks by the difference', async () => {
  const { page, context, errors } = await blankPage();
  const result = await page.evaluate(() => {
    const list = document.createElement('ul');
    document.getElementById('root').append(list);
    window.lib.setChildTexts(list, 'li', ['a', 'b', 'c']);
    const [first, second] = list.children;
    const firstText = first.firstChild;
    window.lib.setChildTexts(list, 'li', ['A', 'b']);
    const shrunk = { texts: [...list.children].map((li) => li.textContent), same: list.children[0] === first && list.children[1] === second, sameNode: first.firstChild === firstText };
    window.lib.setChildTexts(list, 'li', ['A', 'b', 'c', 'd']);
    const grown = { texts: [...list.children].map((li) => li.textContent), tags: [...list.children].map((li) => li.localName), same: list.children[0] === first };
    window.lib.setChildTexts(list, 'li', []);
    return { shrunk, grown, emptied: list.children.length };
  });
  assert.deepEqual(result.shrunk, { texts: ['A', 'b'], same: true, sameNode: true });
  assert.deepEqual(result.grown, { texts: ['A', 'b', 'c', 'd'], tags: ['li', 'li', 'li', 'li'], same: true });
  assert.equal(result.emptied, 0);
  assert.deepEqual(errors, []);
  await context.close();
});
