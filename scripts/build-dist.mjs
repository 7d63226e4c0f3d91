#!/usr/bin/env node
// Turns the built page (build/web) into dist/: a static folder to copy to any host.
//   index.html, embed.html      entry points, names kept so links and iframes stay stable
//   author.html                 the author page: a figure's settings, previews, embed code and
//                               LMS package, beside the embeds it previews
//   attention-figure.js         the drop-in element script (wasm inlined), name kept for snippets
//   attention-lab-resize.js     the iframe height listener hosts include, name kept for snippets
//   *.<hash>.js/.mjs/.css/.wasm everything else, named by content so hosts can cache forever
//   *.gz                        gzip -9 copies of every text file and the wasm, for hosts that
//                               serve pre-compressed files
//   lms/NAME.zip                a SCORM 1.2 package of each figure at its defaults, to upload
//                               to an LMS (web/src/lib/lms/package.js; the toolbar builds the
//                               same at the reader's settings)
//   sizes.json                  what a visitor downloads, raw and gzipped
// Usage: node scripts/build-dist.mjs [--from build/web] [--out dist]

import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { packageFiles, scormPackage } from '../web/src/lib/lms/package.js';
import { figureTitles } from './page-html.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KEEP_NAMES = new Set(['index.html', 'embed.html', 'author.html', 'attention-figure.js', 'attention-lab-resize.js', 'favicon.svg']);
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|wasm|json)$/;

const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 10);
const hashedName = (name, bytes) => name.replace(/(\.[a-z]+)$/, `.${hashOf(bytes)}$1`);
const stripSourceMap = (text) => text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');

/** Replaces every quoted reference to `from` (as "from", 'from', `from` or ./from) with `to`. */
function rewrite(text, from, to) {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(["'\`/])${escaped}(?=["'\`?#])`, 'g'), `$1${to}`);
}

export async function buildDist({ from = join(ROOT, 'build/web'), out = join(ROOT, 'dist') } = {}) {
  const files = (await readdir(from)).filter((f) => !f.endsWith('.map'));
  for (const required of ['index.html', 'embed.html', 'main.js', 'embed.js', 'attention-figure.js', 'attention-lab-resize.js']) {
    if (!files.includes(required)) throw new Error(`${from} has no ${required}: run node scripts/build-web.mjs first`);
  }
  const text = new Map();
  const binary = new Map();
  for (const f of files) {
    if (f.endsWith('.wasm')) binary.set(f, await readFile(join(from, f)));
    else text.set(f, stripSourceMap(await readFile(join(from, f), 'utf8')));
  }

  // Hash leaves first, then what refers to them: wasm → glue → bundles and css → html.
  const renamed = new Map();
  const rename = (name, bytes) => {
    const hashed = KEEP_NAMES.has(name) ? name : hashedName(name, bytes);
    renamed.set(name, hashed);
  };
  const refer = (name) => {
    let content = text.get(name);
    for (const [old, hashed] of renamed) content = rewrite(content, old, hashed);
    text.set(name, content);
  };
  for (const [name, bytes] of binary) rename(name, bytes);
  // A Worker's script, the LMS package builder and the sentence tagger are named in the
  // bundles that load them, so they are hashed before them.
  const order = (name) => (name.endsWith('.mjs') ? 0 : name.endsWith('.css') ? 1
    : name.endsWith('-worker.js') || name === 'lms-package.js' || name === 'sentence-tagger.js' ? 2 : name.endsWith('.js') ? 3 : 4);
  for (const name of [...text.keys()].sort((a, b) => order(a) - order(b))) {
    refer(name);
    rename(name, text.get(name));
  }

  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const written = new Map();
  for (const [name, bytes] of binary) written.set(renamed.get(name), bytes);
  for (const [name, content] of text) written.set(renamed.get(name), Buffer.from(content));
  const sizes = {};
  for (const [name, bytes] of written) {
    await writeFile(join(out, name), bytes);
    sizes[name] = { bytes: bytes.length };
    if (COMPRESSIBLE.test(name)) {
      const gz = gzipSync(bytes, { level: 9 });
      await writeFile(join(out, `${name}.gz`), gz);
      sizes[name].gzip = gz.length;
    }
  }

  // What a visitor downloads for each way of showing the lesson.
  const pick = (pattern) => Object.keys(sizes).filter((n) => pattern.test(n));
  const visits = {
    'the page (index.html)': pick(/^(index\.html|main\..*\.js|styles\..*\.css|attention_lab_web\..*\.(mjs|wasm))$/),
    'one iframe embed (embed.html)': pick(/^(embed\.html|embed\..*\.js|styles\..*\.css|attention_lab_web\..*\.(mjs|wasm))$/),
    'the element script (attention-figure.js)': ['attention-figure.js'],
    // Fetched only when a reader starts a timing run; its core is the page's own, from the cache.
    'a run of "measured in your browser", on top (its Worker)': pick(/^measured-worker\..*js$/),
    '"watch it learn" training, on top (its Worker)': pick(/^learn-worker\..*js$/),
  };
  const report = Object.fromEntries(Object.entries(visits).map(([visit, names]) => [visit, {
    files: names,
    bytes: names.reduce((sum, n) => sum + sizes[n].bytes, 0),
    gzip: names.reduce((sum, n) => sum + (sizes[n].gzip ?? sizes[n].bytes), 0),
  }]));
  const packages = await writeLmsPackages({ out, written });
  await writeFile(join(out, 'sizes.json'), `${JSON.stringify({ files: sizes, visits: report }, null, 2)}\n`);
  return { out, report, renamed, packages };
}

/** dist/lms/NAME.zip for every figure, at its defaults; returns { name: bytes }. */
async function writeLmsPackages({ out, written }) {
  const embedHtml = written.get('embed.html').toString();
  const titles = figureTitles(written.get('index.html').toString());
  await mkdir(join(out, 'lms'), { recursive: true });
  const packages = {};
  for (const [figureName, heading] of Object.entries(titles)) {
    const title = `Attention Lab: ${heading}`;
    const names = await packageFiles({ embedHtml, figureName, readText: async (name) => written.get(name).toString() });
    const files = new Map(names.map((name) => {
      if (!written.has(name)) throw new Error(`embed.html loads ${name}, which the build did not write`);
      return [name, new Uint8Array(written.get(name))];
    }));
    const { bytes } = scormPackage({ figureName, title, embedHtml, files });
    await writeFile(join(out, 'lms', `${figureName}.zip`), bytes);
    packages[figureName] = bytes.length;
  }
  return packages;
}

export function sizeTable(report) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const lines = ['| what the visitor opens | files | raw | gzip -9 |', '| --- | --- | --- | --- |'];
  for (const [visit, r] of Object.entries(report)) lines.push(`| ${visit} | ${r.files.length} | ${kib(r.bytes)} | ${kib(r.gzip)} |`);
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { from: { type: 'string' }, out: { type: 'string' } } });
  try {
    const { out, report, packages } = await buildDist({
      from: values.from ? resolve(values.from) : undefined,
      out: values.out ? resolve(values.out) : undefined,
    });
    const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
    const zips = Object.entries(packages).map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ');
    console.log(`build-dist: wrote ${out}\n\n${sizeTable(report)}\n\nLMS packages (lms/NAME.zip): ${zips}`);
  } catch (error) {
    console.error(`build-dist: ${error.message}`);
    process.exit(1);
  }
}
