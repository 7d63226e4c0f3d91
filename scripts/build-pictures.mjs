#!/usr/bin/env node
// Writes dist/pictures/NAME.png: each figure at its default settings, as the core draws it in
// headless Chromium (embed.html, light theme, no toolbar), for where scripts cannot run, and
// pictures/pictures.css, which shows each only as the background of its own #picture-NAME. An
// embed's <noscript> shows the one its link names (see withNoscriptPictures in page-html.mjs).
// Run by dist.sh after build-dist.mjs.
// Usage: node scripts/build-pictures.mjs [--dist dist] [--figure NAME …]

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { figureTitles } from './page-html.mjs';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WIDTH = 800; // wide enough for each figure's two-column layout, narrow enough to stay small

/** Makes the pictures of `figures` (default: every figure of dist's index.html); returns { name: bytes }. */
export async function buildPictures({ dist = join(ROOT, 'dist'), figures = null } = {}) {
  const names = figures ?? Object.keys(figureTitles(await readFile(join(dist, 'index.html'), 'utf8')));
  await mkdir(join(dist, 'pictures'), { recursive: true });
  const server = await startServer({ root: dist, port: 0, csp: true, compression: false });
  const chromium = await launchChromium();
  const sizes = {};
  const rules = [];
  try {
    const context = await chromium.browser.newContext({ viewport: { width: WIDTH, height: 900 }, colorScheme: 'light', reducedMotion: 'reduce' });
    for (const name of names) {
      const page = await context.newPage();
      await page.goto(`${server.url}embed.html?figure=${encodeURIComponent(name)}&theme=light&toolbar=off`);
      await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 30000 });
      // Charts lay themselves out in the frame after they are first rendered.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const bytes = await page.locator('figure[data-figure]').screenshot({ type: 'png', animations: 'disabled' });
      await writeFile(join(dist, 'pictures', `${name}.png`), bytes);
      sizes[name] = bytes.length;
      rules.push(`#picture-${name}:target .noscript-image { background-image: url("${name}.png"); aspect-ratio: ${bytes.readUInt32BE(16)} / ${bytes.readUInt32BE(20)}; }`);
      await page.close();
    }
    await context.close();
    // Each picture only as the background of its own :target, so a frame fetches only its own.
    await writeFile(join(dist, 'pictures', 'pictures.css'), `${rules.join('\n')}\n`);
  } finally {
    await chromium.close();
    await server.close();
  }
  return sizes;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { dist: { type: 'string' }, figure: { type: 'string', multiple: true } } });
  try {
    const sizes = await buildPictures({ dist: values.dist ? resolve(values.dist) : undefined, figures: values.figure ?? null });
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    console.log(`build-pictures: wrote ${Object.keys(sizes).length} pictures (${(total / 1024).toFixed(0)} KiB) to pictures/`);
  } catch (error) {
    console.error(`build-pictures: ${error.message}`);
    process.exit(1);
  }
}
