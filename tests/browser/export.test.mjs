// The Export menu of the figure toolbar: every picture downloads as a standalone SVG and a
// PNG, every matrix and plot's data as CSV and JSON, for the temperature figure in detail
// and for every other figure on the page generically. The pure helpers (CSV, JSON, the matrix
// registry) are checked under node, in tests/js/page/export-files.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trailingNumber, useBrowser } from './harness.mjs';
import { parseCsv } from '../js/page/csv.mjs';
import { roundForCsv } from '../../web/src/lib/export/files.js';
import { CLIPBOARD, downloadBy, figureLocator, figureNames, toolbarOf } from './toolbar-helpers.mjs';

const session = useBrowser();
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// ----------------------------------------------------------------------------------------
// In the browser

/** Checks a downloaded SVG in the page: parses, is standalone, and reports its size and content. */
function inspectSvg(page, text) {
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      parsed: !doc.querySelector('parsererror'),
      root: root.localName,
      namespace: root.namespaceURI,
      viewBox: root.getAttribute('viewBox'),
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      texts: [...root.querySelectorAll('text')].map((t) => t.textContent),
      rects: root.querySelectorAll('rect').length,
      paths: root.querySelectorAll('path').length,
      classes: root.querySelectorAll('[class]').length,
      externalRefs: [...root.querySelectorAll('*')].filter((el) => el.getAttributeNames()
        .some((a) => /href$/.test(a) || /url\(|var\(/.test(el.getAttribute(a)))).length,
      firstFill: root.querySelector('rect')?.getAttribute('fill'),
    };
  }, text);
}

/** Draws a PNG (as a data: URL, which the CSP allows) and counts its distinct colours. */
function inspectPng(page, bytes) {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 97) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return { width: image.naturalWidth, height: image.naturalHeight, colours: colours.size };
  }, bytes.toString('base64'));
}

// Chromium drops <a download> requests beyond 10 a second from one frame (a guard against
// download floods; chromedp/chromedp#791), and a reader never clicks that fast: the tests
// start one download at most every 150 ms.
const DOWNLOAD_GAP_MS = 150;
let lastDownload = 0;
async function pacedDownload(page, button) {
  const wait = lastDownload + DOWNLOAD_GAP_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  lastDownload = Date.now();
  return downloadBy(page, button);
}

function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, 'starts with the PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function openExport(page, name) {
  const toolbar = toolbarOf(page, name);
  await toolbar.getByRole('button', { name: 'Export', exact: true }).click();
  const list = toolbar.getByRole('list');
  await list.waitFor();
  return { toolbar, items: list.getByRole('listitem') };
}

/** Downloads every format of one Export row and checks each file; returns what it found. */
async function checkRow(page, figure, item, expectedSettings) {
  const buttons = item.getByRole('button');
  const formats = await buttons.evaluateAll((list) => list.map((b) => b.textContent));
  const itemName = (await item.locator('.figure-export-name').evaluate((el) => el.firstChild.textContent)).trim();
  const kind = (await item.locator('.figure-export-kind').innerText()).replace(/[()\s]/g, '');
  const button = (format) => item.getByRole('button', { name: `Download ${itemName} as ${format}`, exact: true });
  const found = { itemName, kind, formats };
  const where = `${figure} / ${itemName}`;

  if (formats.includes('JSON')) {
    const file = await pacedDownload(page, button('JSON'));
    assert.match(file.name, new RegExp(`^${figure}-[a-z0-9-]+\\.json$`), where);
    const json = JSON.parse(file.bytes.toString('utf8'));
    assert.equal(json.figure, figure, where);
    assert.equal(json.name, itemName, where);
    assert.deepEqual(json.settings, expectedSettings, `${where}: the JSON carries the figure's settings`);
    found.json = json;
    if (kind === 'plot') {
      assert.ok(Array.isArray(json.series) && json.series.length > 0, `${where}: series`);
      for (const s of json.series) assert.equal(s.x.length, s.y.length, `${where}: x and y of ${s.name}`);
    } else {
      assert.equal(json.values.length, json.rows, `${where}: rows`);
      for (const row of json.values) assert.equal(row.length, json.cols, `${where}: cols`);
      assert.equal(json.rowLabels.length, json.rows);
      assert.equal(json.colLabels.length, json.cols);
      assert.ok(json.values.flat().some((v) => typeof v === 'number'), `${where}: has numbers`);
    }
  }
  if (formats.includes('CSV')) {
    const file = await pacedDownload(page, button('CSV'));
    assert.match(file.name, /\.csv$/);
    const rows = parseCsv(file.bytes.toString('utf8'));
    if (kind === 'plot') {
      const { series } = found.json;
      const shared = series.every((s) => JSON.stringify(s.x) === JSON.stringify(series[0].x));
      const points = shared ? series[0].x.length : series.reduce((sum, s) => sum + s.x.length, 0);
      assert.equal(rows.length, points + 1, `${where}: one line per point plus a header`);
      for (const s of series) assert.ok(rows.flat().includes(s.name), `${where}: names series ${s.name}`);
    } else {
      const { json } = found;
      assert.equal(rows.length, json.rows + 1, `${where}: rows + 1 lines`);
      assert.deepEqual(rows[0].slice(1), json.colLabels, `${where}: header of column labels`);
      assert.deepEqual(rows.slice(1).map((r) => r[0]), json.rowLabels, `${where}: first column of row labels`);
      // The CSV rounds away float noise (roundForCsv); the JSON keeps the float64 values.
      const rounded = roundForCsv(json.values);
      rows.slice(1).forEach((r, i) => assert.deepEqual(
        r.slice(1).map((v) => (v === '' ? null : Number(v))), rounded[i], `${where}: row ${i} matches the JSON, rounded`,
      ));
    }
  }
  if (formats.includes('SVG')) {
    const file = await pacedDownload(page, button('SVG'));
    assert.match(file.name, /\.svg$/);
    const text = file.bytes.toString('utf8');
    assert.match(text, /<svg/);
    const svg = await inspectSvg(page, text);
    assert.ok(svg.parsed, `${where}: the SVG parses`);
    assert.equal(svg.root, 'svg');
    assert.equal(svg.namespace, 'http://www.w3.org/2000/svg');
    assert.match(svg.viewBox ?? '', /^-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+$/, `${where}: a viewBox`);
    assert.ok(svg.width > 0 && svg.height > 0, `${where}: width and height`);
    assert.equal(svg.classes, 0, `${where}: no classes left (styles are inlined)`);
    assert.equal(svg.externalRefs, 0, `${where}: no href, url() or var() references`);
    assert.ok(svg.firstFill && svg.firstFill !== 'none', `${where}: a background rectangle first`);
    if (found.json && kind !== 'plot') {
      assert.ok(svg.rects >= found.json.rows * found.json.cols, `${where}: one rect per cell`);
      for (const label of found.json.colLabels) assert.ok(svg.texts.includes(label), `${where}: label ${label} in the SVG`);
    }
    if (kind === 'plot') {
      assert.ok(svg.paths > 0, `${where}: the lines are there`);
      for (const s of found.json.series) assert.ok(svg.texts.includes(s.name), `${where}: a legend entry for ${s.name}`);
    }
    found.svg = svg;
  }
  if (formats.includes('PNG')) {
    const file = await pacedDownload(page, button('PNG'));
    assert.match(file.name, /\.png$/);
    assert.ok(file.bytes.length > 1000, `${where}: a non-trivial PNG (${file.bytes.length} bytes)`);
    const size = pngSize(file.bytes);
    if (found.svg) {
      assert.ok(Math.abs(size.width - 2 * found.svg.width) <= 1, `${where}: PNG at 2× (${size.width} vs ${found.svg.width})`);
      assert.ok(Math.abs(size.height - 2 * found.svg.height) <= 1, `${where}: PNG at 2× height`);
    }
    const drawn = await inspectPng(page, file.bytes);
    assert.ok(drawn.colours > 3, `${where}: the PNG shows a picture, not a blank (${drawn.colours} colours)`);
    found.png = size;
  }
  return found;
}

test('temperature: the weights heat map exports as SVG, PNG, CSV and JSON that match the page', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=0.5&temperature.query=2', contextOptions: CLIPBOARD });
  const { toolbar, items } = await openExport(page, 'temperature');
  const kinds = await items.locator('.figure-export-kind').allInnerTexts();
  assert.equal(kinds.filter((k) => /heat map/.test(k)).length, 1, 'one heat map in this figure');
  assert.equal(kinds.filter((k) => /matrix/.test(k)).length, 2, 'and two matrices it computes but does not draw');
  const found = await checkRow(page, 'temperature', items.first(), { query: 2, tau: 0.5 });
  assert.equal(found.kind, 'heatmap');
  assert.deepEqual(found.formats, ['SVG', 'PNG', 'CSV', 'JSON']);
  const { json } = found;
  assert.equal(json.rows, 8);
  assert.equal(json.cols, 8);
  assert.deepEqual(json.rowLabels, ['the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it']);
  for (const row of json.values) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-9, 'each row of weights sums to 1');

  // The exported numbers are the ones the heat map shows.
  const cells = figureLocator(page, 'temperature').getByRole('gridcell');
  const shown = (await cells.evaluateAll((list) => list.map((c) => c.getAttribute('aria-label')))).map(trailingNumber);
  json.values.flat().forEach((value, k) => assert.ok(Math.abs(value - shown[k]) < 5e-4, `cell ${k}: ${value} vs ${shown[k]}`));
  assert.ok(found.svg.texts.includes('it') && found.svg.texts.includes('key \u2192'), 'labels and axis titles travel with the SVG');
  assert.match(await toolbar.getByRole('status').innerText(), /Saved temperature-[a-z-]+\.png/);
  assert.deepEqual(problems, []);
});

test('temperature: a new setting changes the exported values and settings', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const { items } = await openExport(page, 'temperature');
  const button = items.first().getByRole('button', { name: /as JSON$/ });
  const before = JSON.parse((await downloadBy(page, button)).bytes.toString('utf8'));
  assert.deepEqual(before.settings, { query: 7, tau: 1 });
  const slider = figureLocator(page, 'temperature').getByLabel('temperature \u03c4');
  await slider.focus();
  await page.keyboard.press('End');
  const after = JSON.parse((await downloadBy(page, button)).bytes.toString('utf8'));
  assert.deepEqual(after.settings, { query: 7, tau: 100 });
  for (const value of after.values.flat()) assert.ok(Math.abs(value - 1 / 8) < 0.01, 'τ = 100 flattens every row');
  assert.notDeepEqual(after.values, before.values);
  assert.deepEqual(problems, []);
});

test('every figure on the page: each Export item downloads and parses', async () => {
  // The by-hand figure covers its unchecked numbers by default, and exports them as empty.
  const { page, problems } = await session.openPage({ search: '?by-hand.hide=0', contextOptions: CLIPBOARD });
  const names = await figureNames(page);
  assert.ok(names.length >= 5, `figures found: ${names.join(', ')}`);
  const summary = [];
  for (const name of names) {
    const settings = await page.evaluate((figure) => Object.fromEntries(window.attentionLab.keys(figure)
      .map((key) => [key.slice(figure.length + 1), window.attentionLab.value(key)])), name);
    const { toolbar, items } = await openExport(page, name);
    const count = await items.count();
    const noItems = await toolbar.getByText('This figure has no pictures or matrices to export.').count();
    if (noItems) {
      summary.push(`${name}: nothing to export`);
    } else {
      for (let i = 0; i < count; i += 1) {
        // The whole figure as one HTML file is tested in author-host.test.mjs, and every matrix
        // row (CSV and JSON of what the figure computes) by the registered-matrices test below,
        // at these same settings: here, the pictures.
        const row = await items.nth(i).evaluate((el) => ({
          whole: el.classList.contains('figure-export-whole'),
          matrix: /\(matrix\)/.test(el.querySelector('.figure-export-kind')?.textContent ?? ''),
        }));
        if (row.whole || row.matrix) continue;
        const found = await checkRow(page, name, items.nth(i), settings);
        summary.push(`${name}: ${found.itemName} (${found.kind}) ${found.formats.join('/')}`);
      }
    }
    await toolbar.getByRole('button', { name: 'Export', exact: true }).click(); // close it again
  }
  // Most figures draw heat maps; the plots come from why-scale, heads and cost.
  assert.ok(summary.filter((line) => /\(heatmap\)/.test(line)).length >= 5, summary.join('\n'));
  assert.ok(summary.some((line) => /\(plot\)/.test(line)), summary.join('\n'));
  assert.deepEqual(problems, []);
});

test('hidden heat maps are not offered; the menu follows what the figure shows', async () => {
  const { page, problems } = await session.openPage({ contextOptions: CLIPBOARD });
  const names = await figureNames(page);
  for (const name of names) {
    const { items } = await openExport(page, name);
    const offered = await items.locator('.figure-export-name').evaluateAll((list) => list
      .filter((el) => !/\(matrix\)/.test(el.textContent)).map((el) => el.firstChild.textContent.trim()));
    const rendered = await figureLocator(page, name).evaluate((figure) => [...figure.querySelectorAll('[data-exportable]')]
      .filter((el) => el.getClientRects().length > 0).length);
    assert.equal(offered.length, rendered, `${name}: one Export row per rendered heat map or plot (${offered.join('; ')})`);
  }
  assert.deepEqual(problems, []);
});

// ----------------------------------------------------------------------------------------
// Matrices a figure computes but does not draw as a heat map (registerMatrix)

const TOKENS = ['the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it'];
const CROSS_TOKENS = ['le', 'chat', "s'assit"];
// The 64 columns of the toy embedding: identity code, named features, position pairs.
const FEATURES = [
  ...Array.from({ length: 16 }, (_, c) => `code ${c + 1}`),
  'pronoun', 'animate', 'verb', 'relation', 'noun', 'determiner', 'place', 'cause',
  'adjective', 'adverb', 'number', 'name', 'plural', 'time', 'negation', 'punctuation',
  ...Array.from({ length: 16 }, (_, k) => [`pos cos ${k + 1}`, `pos sin ${k + 1}`]).flat(),
];
const KEYS3 = ['key 1', 'key 2', 'key 3'];
const XY = ['x', 'y'];
const QK = 'Q K\u1d40';
const WO = 'W\u1d3c';
const JOBS = ['same word', 'pronoun \u2192 animate', 'verb or relation \u2192 noun', 'previous word'];

const matrixOf = (rows, cols, rowTitle, colTitle) => ({ rows, cols, rowTitle, colTitle });
const SCORES = matrixOf(TOKENS, TOKENS, 'query', 'key'); // queries by keys
const OUTPUT = matrixOf(TOKENS, FEATURES, 'query', 'feature'); // queries by value features
const ONE_QUERY = matrixOf(['q'], KEYS3, 'query', 'key'); // by-hand: one query over three keys
const ONE_OUTPUT = matrixOf(['q'], XY, 'query', 'component');
const byHandDefault = {
  'raw scores q\u00b7k\u2c7c': ONE_QUERY,
  'scaled scores q\u00b7k\u2c7c / \u221ad\u2096': ONE_QUERY,
  'weights softmax(scaled scores)': ONE_QUERY,
  'output (weights \u00b7 V)': ONE_OUTPUT,
  'additive scores w\u2090\u1d40 tanh(W q + U k\u2c7c)': ONE_QUERY,
  'additive weights softmax(e)': ONE_QUERY,
  'additive output (weights \u00b7 V)': ONE_OUTPUT,
};
const slices = (h, make) => Object.fromEntries(Array.from({ length: h }, (_, s) => make(s)));

/** For each figure, in menu order: the registered matrices of the default view, with their labels. */
const REGISTERED = {
  lookup: { [`raw scores ${QK}`]: SCORES, 'weights softmax(S)': SCORES, 'output (weights \u00b7 V)': OUTPUT },
  'by-hand': byHandDefault,
  temperature: { [`scaled scores ${QK} / \u221ad\u2096`]: SCORES, 'output (weights \u00b7 V)': OUTPUT },
  'all-at-once': { [`raw scores ${QK}`]: SCORES },
  'why-scale': {}, // plots of single softmax rows and of an experiment: their data export with the plots
  learn: {}, // weight maps and curves; every step of the curves is offered once a step has been taken
  heads: {
    [`raw scores ${QK} (full-width head)`]: SCORES,
    'raw scores summed over the heads': SCORES,
    [`output of the layer (concat \u00b7 ${WO})`]: OUTPUT,
    ...slices(2, (s) => [`raw scores ${QK} (head ${s} of 2)`, SCORES]),
  },
  cost: {}, // counts, not matrices
  measured: {}, // its plots appear once a run has measured something; their data export with them
  map: {
    ...slices(4, (s) => [`scaled scores (head ${s} of 4, ${JOBS[s]})`, SCORES]),
    [`output of the layer (4 heads, concat \u00b7 ${WO})`]: OUTPUT,
  },
  roles: {
    [`scaled scores ${QK} / \u221ad\u2096 (picked head)`]: SCORES,
    'output of the picked head (weights \u00b7 V)': OUTPUT, // h = 1: the head reads all 64 columns
    [`output of the layer (all heads, concat \u00b7 ${WO})`]: OUTPUT,
  },
  mistakes: { // (a) 4 heads, head 0, which reads features 0–3
    'scaled scores, correct': SCORES,
    'scaled scores, with the mistake': SCORES,
    'output (weights \u00b7 V), correct': matrixOf(TOKENS, FEATURES.slice(0, 16), 'query', 'feature'),
    'output, with the mistake': matrixOf(TOKENS, FEATURES.slice(0, 16), 'query', 'feature'),
  },
  'check-yourself': {}, // a quiz: its answers are not handed out
};

/** Other settings change which matrices are offered and how they are labelled. */
const VARIANT = {
  search: '?heads.k=3&roles.kind=cross&roles.head=4-1&by-hand.table=1&by-hand.hide=0&mistakes.kind=swap-kv&lookup.tie=1',
  expected: {
    lookup: REGISTERED.lookup,
    'by-hand': {
      ...byHandDefault,
      'every token as a query: scaled scores': matrixOf(['token 1', 'token 2', 'token 3'], ['token 1', 'token 2', 'token 3'], 'query', 'key'),
      'every token as a query: output (weights \u00b7 V)': matrixOf(['token 1', 'token 2', 'token 3'], XY, 'query', 'component'),
    },
    heads: {
      ...Object.fromEntries(Object.entries(REGISTERED.heads).slice(0, 3)),
      ...slices(8, (s) => [`raw scores ${QK} (head ${s} of 8)`, SCORES]),
    },
    roles: {
      [`scaled scores ${QK} / \u221ad\u2096 (picked head)`]: matrixOf(CROSS_TOKENS, TOKENS, 'decoder query', 'encoder key'),
      'output of the picked head (weights \u00b7 V)': matrixOf(CROSS_TOKENS, FEATURES.slice(16, 32), 'decoder query', 'feature'),
      [`output of the layer (all heads, concat \u00b7 ${WO})`]: matrixOf(CROSS_TOKENS, FEATURES, 'decoder query', 'feature'),
    },
    mistakes: {
      'scaled scores, correct': SCORES,
      'scaled scores, with the mistake': SCORES,
      'output (weights \u00b7 V), correct': OUTPUT,
      // V in the key slot and K in the value slot: the output blends the 64 columns of K.
      'output, with the mistake': matrixOf(TOKENS, FEATURES.map((_, j) => String(j)), 'query', 'column of K'),
    },
  },
};

/**
 * Opens the Export menu of every figure listed in `expected`, checks that exactly the listed
 * matrices are offered, downloads each as CSV and JSON (checkRow: the JSON's shape and labels
 * against the CSV) and checks its labels. Returns { figure: { name: json } }.
 */
async function checkRegistered(page, expected, { everyFigure }) {
  const names = await figureNames(page);
  if (everyFigure) assert.deepEqual([...names].sort(), Object.keys(expected).sort(), 'every figure on the page is listed here');
  const downloaded = {};
  for (const figure of names.filter((name) => name in expected)) {
    const want = expected[figure];
    const settings = await page.evaluate((name) => Object.fromEntries(window.attentionLab.keys(name)
      .map((key) => [key.slice(name.length + 1), window.attentionLab.value(key)])), figure);
    const { toolbar, items } = await openExport(page, figure);
    const rows = await items.evaluateAll((list) => list.map((item) => {
      const label = item.querySelector('.figure-export-name');
      return label ? { name: label.firstChild.textContent.trim(), kind: label.querySelector('.figure-export-kind').textContent } : null;
    }));
    const matrices = rows.filter((row) => row && /\(matrix\)/.test(row.kind)).map((row) => row.name);
    assert.deepEqual(matrices, Object.keys(want), `${figure}: the matrices offered beside its pictures`);
    if (matrices.length) assert.ok(matrices.some((name) => /scores|output/.test(name)), `${figure}: scores or an output among them`);
    downloaded[figure] = {};
    for (const [name, labels] of Object.entries(want)) {
      const where = `${figure} / ${name}`;
      const found = await checkRow(page, figure, items.nth(rows.findIndex((row) => row?.name === name)), settings);
      assert.equal(found.itemName, name);
      assert.deepEqual(found.formats, ['CSV', 'JSON'], where);
      const { json } = found;
      assert.deepEqual([json.rows, json.cols], [labels.rows.length, labels.cols.length], `${where}: shape`);
      assert.deepEqual(json.rowLabels, labels.rows, `${where}: row labels`);
      assert.deepEqual(json.colLabels, labels.cols, `${where}: column labels`);
      assert.deepEqual([json.rowTitle, json.colTitle], [labels.rowTitle, labels.colTitle], `${where}: axis titles`);
      assert.ok(json.values.flat().every((v) => typeof v === 'number'), `${where}: every entry is a number`);
      if (/^(additive )?weights/.test(name)) {
        for (const row of json.values) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${where}: rows sum to 1`);
      }
      downloaded[figure][name] = json;
    }
    await toolbar.getByRole('button', { name: 'Export', exact: true }).click(); // close it again
  }
  return downloaded;
}

const entries = (json) => json.values.flat();

test('every figure offers the scores and outputs it computes as CSV and JSON, with labelled rows and columns', async () => {
  // by-hand covers its numbers until they are checked (and exports a covered step empty):
  // switched off here, as a reader who has seen them.
  const { page, problems } = await session.openPage({ search: '?by-hand.hide=0', contextOptions: CLIPBOARD });
  const plain = await checkRegistered(page, REGISTERED, { everyFigure: true });
  // A few numbers the lesson ties together: Q Kᵀ over √64 is what the temperature figure
  // scales (τ = 1), and the heads' raw scores add up to the full-width head's.
  const raw = entries(plain['all-at-once'][`raw scores ${QK}`]);
  entries(plain.temperature[`scaled scores ${QK} / \u221ad\u2096`])
    .forEach((v, k) => assert.ok(Math.abs(v - raw[k] / 8) < 1e-9, `scaled = raw / 8 at ${k}`));
  assert.deepEqual(entries(plain.lookup[`raw scores ${QK}`]), raw, 'lookup and all-at-once compute the same Q K\u1d40');
  const heads = plain.heads;
  entries(heads['raw scores summed over the heads']).forEach((v, k) => {
    const parts = [0, 1].map((s) => entries(heads[`raw scores ${QK} (head ${s} of 2)`])[k]);
    assert.ok(Math.abs(v - parts[0] - parts[1]) < 1e-9, `summed = head 0 + head 1 at ${k}`);
    assert.ok(Math.abs(v - raw[k]) < 1e-9, `summed = full width at ${k}`);
  });
  const byHand = plain['by-hand'];
  assert.deepEqual(byHand['raw scores q\u00b7k\u2c7c'].values, [[1, 0, 1]], 'the lesson\u2019s q = [1, 0] against its three keys');

  const { page: other, problems: otherProblems } = await session.openPage({ search: VARIANT.search, contextOptions: CLIPBOARD });
  const varied = await checkRegistered(other, VARIANT.expected, { everyFigure: false });
  assert.deepEqual(Object.keys(varied).sort(), Object.keys(VARIANT.expected).sort());
  const eight = varied.heads;
  entries(eight['raw scores summed over the heads']).forEach((v, k) => assert.ok(Math.abs(v - raw[k]) < 1e-9, `h = 8 sums to Q K\u1d40 at ${k}`));
  assert.notDeepEqual(entries(varied.lookup[`raw scores ${QK}`]), raw, 'tying W_K to W_Q changes the raw scores');
  assert.deepEqual(problems, []);
  assert.deepEqual(otherProblems, []);
});
