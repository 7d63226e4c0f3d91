// Chart text reads well everywhere:
// - every visible chart label has a WCAG contrast of at least 4.5:1 with the fill behind it,
//   in the light and the dark theme, at the figures' defaults and at extreme settings (axe
//   leaves text on SVG fills "incomplete", so the contrast is computed here, in the page);
// - chart text is at least 11 px on screen at 320, 375 and 1280 px, and no number printed on
//   a heat map's cell is wider than the cell;
// - at 200 % text it grows, and the by-hand fields never run under their labels or the tabs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESKTOP, PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();

const MIN_CONTRAST = 4.5;
const MIN_TEXT_PX = 11;
// Extreme settings, two links: the sharpest and the flattest τ, eight heads (first and last
// drawn large), the causal and the cross-attention masks, and the mistakes that move the map most.
const SETTINGS = [
  '?temperature.tau=0.01&heads.k=3&heads.head=7&roles.kind=decoder&mistakes.kind=wrong-axis&lookup.tie=1&all-at-once.query=0',
  '?temperature.tau=100&heads.k=3&heads.head=0&roles.kind=cross&mistakes.kind=no-scale&map.query=0',
];

// In the page: every visible chart text, the ink it is drawn in and the colour behind it
// (the halo it is drawn on, or the first opaque fill or background under its middle).
function contrastPairs() {
  const parse = (colour) => {
    const m = colour.match(/rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:\s*[,/]\s*([\d.]+))?\)/);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
  };
  const channel = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const over = (top, bottom) => top.slice(0, 3).map((c, i) => c * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const paintOf = (element) => {
    const style = getComputedStyle(element);
    if (element instanceof SVGElement) {
      if (!(element instanceof SVGGeometryElement) || element.tagName === 'line') return null;
      const fill = parse(style.fill);
      return fill && fill[3] > 0 && Number(style.fillOpacity) > 0 ? [...fill.slice(0, 3), fill[3] * Number(style.fillOpacity)] : null;
    }
    const background = parse(style.backgroundColor);
    return background && background[3] > 0 ? background : null;
  };
  const backgroundAt = (x, y, text) => {
    const layers = [];
    for (const element of document.elementsFromPoint(x, y)) {
      if (element === text || element.tagName === 'text' || element.tagName === 'tspan') continue;
      const paint = paintOf(element);
      if (!paint) continue;
      layers.push(paint);
      if (paint[3] >= 1) break;
    }
    return layers.reduceRight((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const pairs = [];
  for (const text of document.querySelectorAll('svg text')) {
    if (!text.textContent.trim() || text.closest('[hidden]')) continue;
    const style = getComputedStyle(text);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    text.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const box = text.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const ink = parse(style.fill);
    const halo = parse(style.stroke);
    const haloed = style.paintOrder.startsWith('stroke') && halo && halo[3] >= 1 && parseFloat(style.strokeWidth) >= 2;
    const behind = haloed ? halo : backgroundAt(box.x + box.width / 2, box.y + box.height / 2, text);
    const inkOnBehind = over(ink, behind);
    const [a, b] = [luminance(inkOnBehind), luminance(behind)];
    pairs.push({
      ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
      where: `${text.closest('[data-figure]')?.dataset.figure} .${text.getAttribute('class')} "${text.textContent}" ${style.fill} on rgb(${behind.slice(0, 3).map(Math.round)})`,
    });
  }
  // The numbers a heat map prints on its canvas: the ink it drew each in, on the fill it drew
  // under it, as the cell records them; the fill is checked against the canvas's own pixel.
  for (const canvas of document.querySelectorAll('.heatmap-canvas')) {
    if (!canvas.getClientRects().length || canvas.closest('[hidden]')) continue;
    const svg = canvas.nextElementSibling;
    const drawing = canvas.getContext('2d');
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    for (const cell of [...svg.querySelectorAll('[role=gridcell]')].filter((cell) => cell.drawn.text)) {
      const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
      const fill = hex(cell.drawn.fill);
      const ink = { light: [255, 255, 255], dark: [0x1d, 0x1f, 0x24], black: [0, 0, 0] }[cell.drawn.ink];
      const [x, y] = [Number(cell.getAttribute('x')) + 2, Number(cell.getAttribute('y')) + 2];
      const pixel = [...drawing.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data.slice(0, 3)];
      const where = `${canvas.closest('[data-figure]')?.dataset.figure} canvas "${cell.drawn.text}" ${cell.drawn.ink} on ${cell.drawn.fill}`;
      if (pixel.some((c, k) => Math.abs(c - fill[k]) > 2)) pairs.push({ ratio: 0, where: `${where}, but the canvas shows rgb(${pixel})` });
      const [a, b] = [luminance(ink), luminance(fill)];
      pairs.push({ ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), where });
    }
  }
  return pairs;
}

// In the page: each visible chart text's size on screen, in px (its font size times the scale
// from its SVG's units to the screen).
function renderedTextSizes() {
  const sizes = [];
  for (const text of document.querySelectorAll('svg text')) {
    if (!text.textContent.trim()) continue;
    const matrix = text.getScreenCTM();
    const box = text.getBoundingClientRect();
    if (!matrix || box.width === 0 || getComputedStyle(text).visibility === 'hidden') continue;
    sizes.push({
      px: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(matrix.a, matrix.b),
      where: `${text.closest('[data-figure]')?.dataset.figure} .${text.getAttribute('class')} "${text.textContent}"`,
      key: `${text.closest('[data-figure]')?.dataset.figure}|${text.getAttribute('class')}|${text.textContent}`,
    });
  }
  // The numbers heat maps print on their canvases, at the canvas's font (drawn at 1 px per px).
  for (const canvas of document.querySelectorAll('.heatmap-canvas')) {
    if (!canvas.getClientRects().length || !canvas.dataset.font) continue;
    const px = parseFloat(/([\d.]+)px/.exec(canvas.dataset.font)[1]);
    const figure = canvas.closest('[data-figure]')?.dataset.figure;
    const label = canvas.nextElementSibling.getAttribute('aria-label');
    for (const cell of [...canvas.nextElementSibling.querySelectorAll('[role=gridcell]')].filter((cell) => cell.drawn.text)) {
      const at = `${cell.dataset.row},${cell.dataset.col}`;
      sizes.push({ px, where: `${figure} canvas "${cell.drawn.text}"`, key: `${figure}|${label}|canvas|${at}` });
    }
  }
  return sizes;
}

// In the page: the heat-map numbers wider than their cells, measured in the canvas's own font
// by a canvas of the test's (a number too wide is printed shorter, or not at all).
function printedOverflows() {
  const wide = [];
  let checked = 0;
  for (const canvas of document.querySelectorAll('.heatmap-canvas')) {
    if (!canvas.getClientRects().length || !canvas.dataset.font) continue;
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = canvas.dataset.font;
    for (const cell of [...canvas.nextElementSibling.querySelectorAll('[role=gridcell]')].filter((cell) => cell.drawn.text)) {
      checked += 1;
      const width = pen.measureText(cell.drawn.text).width;
      const room = Number(cell.getAttribute('width')) - 2;
      if (!(width <= room)) wide.push(`${canvas.closest('[data-figure]')?.dataset.figure} "${cell.drawn.text}" ${width.toFixed(1)} px in ${room} px`);
    }
  }
  return { wide, checked };
}

// In the page: the by-hand fields, their names and axis labels and the step tabs that overlap.
function byHandOverlaps() {
  const figure = document.querySelector('[data-figure="by-hand"]');
  const boxes = [...figure.querySelectorAll('.by-hand-number, .by-hand-field-name, .by-hand-axis-label, .by-hand-tab')]
    .map((element) => ({ element, box: element.getBoundingClientRect() }))
    .filter(({ box }) => box.width > 0 && box.height > 0);
  const overlaps = [];
  const name = (e) => `${e.className} "${e.textContent || e.id}"`;
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, b] = [boxes[i].box, boxes[j].box];
      const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      if (overlap && !boxes[i].element.contains(boxes[j].element)) overlaps.push(`${name(boxes[i].element)} × ${name(boxes[j].element)}`);
    }
  }
  return { overlaps, checked: boxes.length };
}

const nextFrames = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

test('every chart label contrasts at least 4.5:1 with the fill behind it, light and dark, at defaults and extreme settings', async () => {
  const runs = [
    { search: '', colorScheme: 'light' },
    { search: '', colorScheme: 'dark' },
    ...SETTINGS.map((search) => ({ search, colorScheme: 'light' })),
    { search: SETTINGS[0], colorScheme: 'dark' },
  ];
  let checked = 0;
  let worst = Infinity;
  for (const { search, colorScheme } of runs) {
    const { page, context, problems } = await session.openPage({ search, contextOptions: { ...DESKTOP, colorScheme } });
    const pairs = await page.evaluate(contrastPairs);
    assert.ok(pairs.length > 500, `${colorScheme} ${search}: ${pairs.length} labels checked`);
    const low = pairs.filter((p) => !(p.ratio >= MIN_CONTRAST));
    assert.deepEqual(low.map((p) => `${p.ratio.toFixed(2)}:1 ${p.where}`), [], `${colorScheme} ${search || 'defaults'}`);
    checked += pairs.length;
    worst = Math.min(worst, ...pairs.map((p) => p.ratio));
    assert.deepEqual(problems, []);
    await context.close();
  }
  console.log(`# chart-text: ${checked} label/fill pairs over ${runs.length} page loads, lowest contrast ${worst.toFixed(2)}:1`);
});

test('chart text is at least 11 px on screen at 320, 375 and 1280 px, numbers fit their cells; at 200 % text it grows and the by-hand fields stay clear', async () => {
  const views = [
    { name: '320 px', options: { ...PHONE, viewport: { width: 320, height: 640 } }, grow: false },
    { name: '375 px', options: PHONE, grow: true },
    { name: '1280 px', options: DESKTOP, grow: true },
  ];
  const report = [];
  for (const { name, options, grow } of views) {
    const { page, context, problems } = await session.openPage({ contextOptions: options });
    const sizes = await page.evaluate(renderedTextSizes);
    assert.ok(sizes.length > 500, `${name}: ${sizes.length} chart texts`);
    const small = sizes.filter((s) => !(s.px >= MIN_TEXT_PX - 0.01));
    assert.deepEqual(small.map((s) => `${s.px.toFixed(1)} px ${s.where}`), [], `${name}: chart text under ${MIN_TEXT_PX} px`);
    const printed = await page.evaluate(printedOverflows);
    assert.ok(printed.checked > 300, `${name}: ${printed.checked} printed numbers`);
    assert.deepEqual(printed.wide, [], `${name}: numbers wider than their cells`);
    const smallest = Math.min(...sizes.map((s) => s.px));
    report.push(`${name}: ${sizes.length} texts, smallest ${smallest.toFixed(1)} px`);
    if (grow) {
      assert.deepEqual((await page.evaluate(byHandOverlaps)).overlaps, [], `${name}, 100 % text: by-hand fields and labels`);
      // 200 % text, as the reader's browser setting gives it: the root font size doubles.
      await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
      await nextFrames(page);
      // Read down the page as a learner would: a part off screen is not rendered (content-
      // visibility), and its charts fit the new text size when it comes on screen.
      await page.evaluate(async () => {
        const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
          window.scrollTo(0, y);
          await frame();
        }
      });
      const large = new Map((await page.evaluate(renderedTextSizes)).map((s) => [s.key, s.px]));
      const before = new Map(sizes.map((s) => [s.key, s.px]));
      const ratios = [...before].filter(([key]) => large.has(key)).map(([key, px]) => ({ key, ratio: large.get(key) / px }));
      assert.ok(ratios.length > 0.9 * before.size, `${name}: ${ratios.length} of ${before.size} texts found again at 200 %`);
      const notGrown = ratios.filter((r) => !(r.ratio >= 1.25));
      assert.deepEqual(notGrown.map((r) => `${r.ratio.toFixed(2)}× ${r.key}`), [], `${name}: chart text that did not grow at 200 % text`);
      // ...and no more than the reader asked for: a chart that also grows its drawing with the
      // text must not scale its text twice (the by-hand planes once drew it 4× as large).
      const overGrown = ratios.filter((r) => !(r.ratio <= 2.2));
      assert.deepEqual(overGrown.map((r) => `${r.ratio.toFixed(2)}× ${r.key}`), [], `${name}: chart text that grew past 2× at 200 % text`);
      const { overlaps, checked } = await page.evaluate(byHandOverlaps);
      assert.ok(checked >= 30, `${name}: ${checked} by-hand fields, labels and tabs`);
      assert.deepEqual(overlaps, [], `${name}, 200 % text: by-hand fields and labels overlap`);
      report.push(`${name} at 200 %: growth ${Math.min(...ratios.map((r) => r.ratio)).toFixed(2)}× to ${Math.max(...ratios.map((r) => r.ratio)).toFixed(2)}×, ${checked} by-hand boxes clear`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
  console.log(`# chart-text: ${report.join('; ')}`);
});
