#!/usr/bin/env node
// Writes the README's generated tables, so that they say what the build really makes:
//   sizes     what a visitor downloads, from dist/sizes.json (written by build-dist.mjs)
//   heights   each embed's height at 375, 768 and 1280 px, measured in headless Chromium,
//             for hosts that strip scripts and so cannot let the frame grow to its content
// Each table sits between <!-- generated: NAME --> and <!-- end generated: NAME --> in README.md.
// tests/browser/readme-tables.test.mjs fails when a table is stale.
//
// Usage: node scripts/readme-tables.mjs [--dist dist | --from build/web] [--heights] [--check]
//   --from     make a dist/ in a temporary folder from this page build first (no dist.sh needed)
//   --heights  also measure the heights (serves dist/, drives /usr/bin/chromium; ~1 min)
//   --check    write nothing; exit 1 if README.md differs from what would be written

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EMBED_WIDTHS = [375, 768, 1280];

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

// What each of the page's files is, for the per-file table, by the start of its name.
const PAGE_FILES = [
  [/^index\.html$/, (n, formulas) => `index.html (prose and ${formulas} formulas as MathML)`],
  [/^main\..*\.js$/, () => 'main.[hash].js (the figures)'],
  [/^styles\..*\.css$/, () => 'styles.[hash].css'],
  [/^attention_lab_web\..*\.mjs$/, () => 'attention_lab_web.[hash].mjs (Emscripten glue)'],
  [/^attention_lab_web\..*\.wasm$/, () => 'attention_lab_web.[hash].wasm (the core)'],
];

/** The two size tables, from the contents of sizes.json and the number of formulas on the page. */
export function sizeTables(sizes, formulas) {
  const lines = ['| what the visitor opens | files | raw | gzip -9 |', '| --- | --- | --- | --- |'];
  for (const [visit, r] of Object.entries(sizes.visits)) lines.push(`| ${visit} | ${r.files.length} | ${kib(r.bytes)} | ${kib(r.gzip)} |`);
  lines.push('', "Of the page's download, by file:", '', '| file | raw | gzip -9 |', '| --- | --- | --- |');
  for (const [pattern, describe] of PAGE_FILES) {
    const name = sizes.visits['the page (index.html)'].files.find((n) => pattern.test(n));
    if (!name) throw new Error(`sizes.json lists no page file matching ${pattern}`);
    const file = sizes.files[name];
    lines.push(`| ${describe(name, formulas)} | ${kib(file.bytes)} | ${kib(file.gzip ?? file.bytes)} |`);
  }
  return lines.join('\n');
}

/** The heights table, from { figure: { 375: px, 768: px, 1280: px } }, rounded up to 10 px. */
export function heightTable(heights) {
  const up = (px) => Math.ceil(px / 10) * 10;
  const lines = [`| figure | ${EMBED_WIDTHS.map((w) => `${w} px wide`).join(' | ')} |`, `| --- |${' --- |'.repeat(EMBED_WIDTHS.length)}`];
  for (const [figure, byWidth] of Object.entries(heights)) {
    lines.push(`| \`${figure}\` | ${EMBED_WIDTHS.map((w) => `${up(byWidth[w])} px`).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Where the measured heights are kept for the page's Embed code panel. */
export const EMBED_HEIGHTS_PATH = join(ROOT, 'web/src/lib/share/embed-heights.json');

/** { figure: { width: px } } rounded up to 10 px, as the README's table gives them. */
export function roundedHeights(heights) {
  const up = (px) => Math.ceil(px / 10) * 10;
  return Object.fromEntries(Object.entries(heights).map(([figure, byWidth]) => [figure,
    Object.fromEntries(EMBED_WIDTHS.map((w) => [String(w), up(byWidth[w])]))]));
}

/** Figure names in page order, from the built index.html. */
export function figureNames(indexHtml) {
  return [...indexHtml.matchAll(/<figure\b[^>]*\bdata-figure="([^"]+)"/g)].map((m) => m[1]);
}

/**
 * Each embed's document height at its default settings, as the embed itself reports it to
 * its host (embed.js: the root element's height), in an iframe-sized viewport of each width.
 */
export async function measureEmbedHeights(browser, baseUrl, figures) {
  const heights = Object.fromEntries(figures.map((f) => [f, {}]));
  for (const width of EMBED_WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    for (const figure of figures) {
      await page.goto(`${baseUrl}embed.html?figure=${figure}`);
      await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
      await page.evaluate(() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))));
      heights[figure][width] = await page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    }
    await context.close();
  }
  return heights;
}

const markers = (name) => [`<!-- generated: ${name} -->`, `<!-- end generated: ${name} -->`];

/** The text between a block's markers (trimmed), or throws if README.md lacks them. */
export function readBlock(readme, name) {
  const [begin, end] = markers(name);
  const start = readme.indexOf(begin);
  const stop = readme.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`README.md has no "${begin}" … "${end}" block`);
  return readme.slice(start + begin.length, stop).trim();
}

export function replaceBlock(readme, name, content) {
  const [begin, end] = markers(name);
  readBlock(readme, name);
  const start = readme.indexOf(begin) + begin.length;
  return `${readme.slice(0, start)}\n${content}\n${readme.slice(readme.indexOf(end))}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { dist: { type: 'string' }, from: { type: 'string' }, heights: { type: 'boolean' }, check: { type: 'boolean' } } });
  const readmePath = join(ROOT, 'README.md');
  let distDir = resolve(values.dist ?? join(ROOT, 'dist'));
  let scratch = null;
  try {
    if (values.from) {
      const { buildDist } = await import('./build-dist.mjs');
      scratch = await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
      distDir = scratch;
      await buildDist({ from: resolve(values.from), out: distDir });
    }
    const sizes = JSON.parse(await readFile(join(distDir, 'sizes.json'), 'utf8').catch(() => {
      throw new Error(`no ${join(distDir, 'sizes.json')}: run bash scripts/dist.sh first`);
    }));
    const indexHtml = await readFile(join(distDir, 'index.html'), 'utf8');
    const formulas = (indexHtml.match(/<math\b/g) ?? []).length;
    const readme = await readFile(readmePath, 'utf8');
    let next = replaceBlock(readme, 'sizes', sizeTables(sizes, formulas));
    if (values.heights) {
      const { launchChromium } = await import('./chromium.mjs');
      const { startServer } = await import('./serve.mjs');
      const server = await startServer({ root: distDir, port: 0, csp: true });
      const chromium = await launchChromium();
      try {
        const heights = await measureEmbedHeights(chromium.browser, server.url, figureNames(indexHtml));
        next = replaceBlock(next, 'heights', heightTable(heights));
        // The Embed code panel gives each iframe the tallest of these, so that a frame is tall
        // enough at every width even where no script may resize it.
        if (!values.check) await writeFile(EMBED_HEIGHTS_PATH, `${JSON.stringify(roundedHeights(heights), null, 2)}\n`);
      } finally {
        await chromium.close();
        await server.close();
      }
    }
    if (values.check) {
      if (next !== readme) {
        console.error('readme-tables: README.md is stale; run node scripts/readme-tables.mjs' + (values.heights ? ' --heights' : ''));
        process.exitCode = 1;
      } else {
        console.log('readme-tables: README.md is up to date');
      }
    } else {
      await writeFile(readmePath, next);
      console.log(`readme-tables: ${next === readme ? 'README.md was already up to date' : 'rewrote the tables in README.md'}`);
    }
  } catch (error) {
    console.error(`readme-tables: ${error.message}`);
    process.exitCode = 1;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
