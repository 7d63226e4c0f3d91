// Paper shows the heat maps. On screen a map's colours and numbers are a canvas, which the
// print stylesheet hides; while the page prints, every map carries the same cells as SVG
// shapes instead (lib/charts/heatmap/svg-cells.js), and takes them out again afterwards. On
// the lesson page and inside an <attention-figure>'s shadow root alike: a course author who
// prints a page with an element gets its maps too.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness.mjs';
import { elementsReady, openHost } from './host-page.mjs';

const session = useBrowser();

/**
 * Runs in the page: listens for the next print, and records, while it prints, each heat map's
 * SVG cells (their number, and the fill and text of the first numbered one) beside what its
 * canvas drew, and whether the canvas is hidden.
 */
function recordPrint() {
  // The places a map can be: the document, and each element's shadow root. Kept on window so
  // printAndRead counts what is left in the same places.
  const roots = () => [document, ...[...document.querySelectorAll('attention-figure')].map((element) => element.shadowRoot)];
  window.printRoots = roots;
  const maps = () => roots().flatMap((root) => [...root.querySelectorAll('.heatmap')]);
  window.printed = null;
  window.addEventListener('beforeprint', () => {
    window.printed = maps().map((map) => {
      const canvas = map.querySelector('.heatmap-canvas');
      const cells = [...map.querySelectorAll('[role=gridcell]')];
      // The first cell with a number, else the first with a colour (a map may start empty).
      const numbered = cells.find((cell) => cell.drawn?.text) ?? cells.find((cell) => cell.drawn?.fill);
      const shapes = map.querySelector('.heatmap-svg-cells');
      const index = cells.indexOf(numbered);
      return {
        figure: map.closest('[data-figure]')?.dataset.figure,
        cells: cells.length,
        rects: shapes?.querySelectorAll('rect').length ?? 0,
        drawn: numbered ? { fill: numbered.drawn.fill, text: numbered.drawn.text } : null,
        shape: shapes && index >= 0 ? {
          fill: shapes.querySelectorAll('rect')[index].getAttribute('fill'),
          text: numbered.drawn.text
            ? [...shapes.querySelectorAll('text')].find((text) => text.textContent === numbered.drawn.text)?.textContent ?? null
            : numbered.drawn.text,
        } : null,
        canvasShown: getComputedStyle(canvas).display !== 'none',
        hidden: map.closest('[hidden]') !== null,
      };
    });
  }, { once: true });
}

/** Prints the page (to PDF) and returns what recordPrint saw, and the SVG cells left after. */
async function printAndRead(page) {
  await page.evaluate(recordPrint);
  await page.emulateMedia({ media: 'print' }); // the canvases' print rule, as the printout sees it
  const pdf = await page.pdf({ format: 'A4' });
  const printed = await page.evaluate(() => window.printed);
  await page.emulateMedia({ media: 'screen' });
  const left = await page.evaluate(() => window.printRoots()
    .reduce((sum, root) => sum + root.querySelectorAll('.heatmap-svg-cells').length, 0));
  return { printed, left, pdfBytes: pdf.length };
}

function assertEveryMapPrinted(printed, { figures }) {
  assert.ok(printed, 'the page heard beforeprint');
  assert.deepEqual([...new Set(printed.map((map) => map.figure))].sort(), [...figures].sort());
  for (const map of printed) {
    assert.equal(map.rects, map.cells, `${map.figure}: one SVG cell per grid cell while printing`);
    assert.equal(map.canvasShown, false, `${map.figure}: the canvas is hidden on paper`);
    if (map.drawn) assert.deepEqual(map.shape, map.drawn, `${map.figure}: the SVG cell has the canvas's colour and number`);
  }
  // A map in a panel not shown (a choice not picked) is not printed either.
  assert.deepEqual(printed.filter((map) => !map.drawn && !map.hidden).map((map) => map.figure), [],
    'every map on show has its colours to print');
}

test('printing the lesson gives every heat map its cells as SVG, and takes them out after', async () => {
  const { page, problems } = await session.openPage();
  const { printed, left, pdfBytes } = await printAndRead(page);
  assertEveryMapPrinted(printed, {
    figures: ['lookup', 'by-hand', 'temperature', 'all-at-once', 'learn', 'heads', 'map', 'roles', 'mistakes'],
  });
  assert.ok(pdfBytes > 10000, `a PDF was made (${pdfBytes} bytes)`);
  assert.equal(left, 0, 'no SVG cells are left on screen after printing');
  assert.deepEqual(problems, []);
});

test('printing a course page prints the heat maps inside its <attention-figure> elements', async () => {
  const { page, context, problems } = await openHost(session,
    '<script src="attention-figure.js"></script><attention-figure name="temperature" tau="0.5"></attention-figure>'
    + '<attention-figure name="heads" k="2"></attention-figure>');
  await elementsReady(page);
  const { printed, left } = await printAndRead(page);
  assertEveryMapPrinted(printed, { figures: ['temperature', 'heads'] });
  assert.equal(printed.length, 3, 'the temperature map, and the heads figure\'s full-width and picked head');
  assert.equal(left, 0);
  assert.deepEqual(problems, []);
  await context.close();
});
