#!/usr/bin/env node
// Builds the static page and its embeds into build/web/:
//   main.js (+ .map)          web/src/main.js bundled by esbuild (ES module, minified)
//   embed.js (+ .map)         web/src/embed.js: one figure alone, for embed.html in an iframe
//   measured-worker.js        web/src/figures/measured/worker.js: the Worker in which the
//                             "measured in your browser" figure times the core (same origin)
//   lms-package.js            web/src/lms-package.js: zips a figure into a SCORM 1.2 package,
//                             imported by the toolbar only when a reader asks for one
//   learn-worker.js           web/src/figures/learn/worker.js: the Worker in which the "watch it
//                             learn" figure trains (same origin)
//   sentence-tagger.js        web/src/sentence-tagger.js: the tagger for the learner's own
//                             sentence, imported only when they apply one (scripts/sentence-tagger-build.mjs)
//   embed.html                web/embed.html
//   attention-figure.js       web/src/element.js as one classic script with the wasm inlined:
//                             the <attention-figure> element for pages that can run scripts
//   attention-lab-resize.js   web/attention-lab-resize.js: the listener a host page includes
//                             so that its iframes grow to fit their figures
//   attention_lab_web.mjs     the Emscripten glue, copied as is and imported at run time
//   attention_lab_web.wasm    the compiled core
//   index.html                web/index.html with every formula rendered to MathML by KaTeX
//                             (its <figure data-figure> elements are also the embeds' markup)
//   styles.css                web/styles.css (its @imports inlined) followed by every figure's own CSS (imported by
//                             its module, e.g. web/src/figures/heads/heads.css), bundled by esbuild
//   favicon.svg               copied
//   author.html, author.js    the author page: web/author.html, and web/src/author.js bundled
//                             without the figures' CSS (it only reads their SETTINGS)
//   author.css                web/author.css, the author page's own rules after styles.css
//
// The page must run under the Content-Security-Policy in scripts/serve.mjs (`default-src 'self';
// script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; base-uri 'none';
// form-action 'none'; object-src 'none'`), so the build refuses to emit HTML with inline
// scripts, style attributes or event-handler attributes, and writes that policy into both
// HTML files as a <meta http-equiv> for hosts that send none.
//
// Usage: node scripts/build-web.mjs [--wasm-dir build/wasm] [--out build/web]

import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import {
  checkCspSafe, checkFormulaNames, extractFigureMarkup, figureTitles, renderFormulas, withNoscriptPictures, withPolicyMeta,
} from './page-html.mjs';
import { readStylesheet, shadowStyles } from './page-styles.mjs';
import { buildSentenceTagger } from './sentence-tagger-build.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GLUE = 'attention_lab_web.mjs';
const WASM = 'attention_lab_web.wasm';
const SINGLE_FILE_GLUE = 'attention_lab_single.mjs';

/**
 * The single-file glue split in two: the glue without its inlined wasm, and a factory that
 * decodes the base64 into `wasmBinary` before calling it. Left inline, the glue would first
 * try fetch("data:…"), which a host's `connect-src` (or `default-src 'self'`) blocks, with two
 * console errors that quote the whole base64, before falling back to decoding it.
 */
export function splitSingleFileGlue(glue) {
  const dataUri = /(["'])data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)\1/g;
  const found = [...glue.matchAll(dataUri)];
  if (found.length !== 1) throw new Error(`expected one inlined wasm in ${SINGLE_FILE_GLUE}, found ${found.length}`);
  // The emptied data: URI keeps the glue on its data-URI path (no locateFile, no fetch); with
  // wasmBinary given, it compiles those bytes.
  const strippedGlue = glue.replace(dataUri, '$1data:application/octet-stream;base64,$1');
  const factory = [
    "import createGlue from 'attention-lab:single-file-glue';",
    `const WASM_BASE64 = ${JSON.stringify(found[0][2])};`,
    'function wasmBytes() {',
    '  const text = atob(WASM_BASE64);',
    '  const bytes = new Uint8Array(text.length);',
    '  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);',
    '  return bytes;',
    '}',
    'export default function createModule(options = {}) {',
    '  return createGlue({ wasmBinary: wasmBytes(), ...options });',
    '}',
  ].join('\n');
  return { strippedGlue, factory };
}

async function requireFile(path, hint) {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size === 0) throw new Error('empty or not a file');
  } catch {
    throw new Error(`missing ${path}\n${hint}`);
  }
}

// Resolves the build-time modules the embed entry points import.
function virtualModules(modules) {
  return {
    name: 'attention-lab-virtual-modules',
    setup(build) {
      build.onResolve({ filter: /^attention-lab:/ }, (args) => ({ path: args.path, namespace: 'attention-lab' }));
      build.onLoad({ filter: /.*/, namespace: 'attention-lab' }, async (args) => {
        const module = modules[args.path];
        if (!module) throw new Error(`unknown build-time module ${args.path}`);
        return typeof module === 'function' ? module() : module;
      });
    },
  };
}

export async function buildWeb({ wasmDir = join(ROOT, 'build/wasm'), outDir = join(ROOT, 'build/web') } = {}) {
  const hint = 'Build the WebAssembly core first: bash scripts/build-core.sh';
  await requireFile(join(wasmDir, GLUE), hint);
  await requireFile(join(wasmDir, WASM), hint);
  await requireFile(join(wasmDir, SINGLE_FILE_GLUE), hint);

  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const source = await readFile(join(ROOT, 'web/index.html'), 'utf8');
  checkFormulaNames(source, 'index.html');
  const rendered = renderFormulas(source);
  const { count } = rendered;
  const html = withPolicyMeta(rendered.html, 'index.html');
  checkCspSafe(html, 'index.html');
  const authorHtml = withPolicyMeta(await readFile(join(ROOT, 'web/author.html'), 'utf8'), 'author.html');
  checkCspSafe(authorHtml, 'author.html');
  const embedHtml = withNoscriptPictures(withPolicyMeta(await readFile(join(ROOT, 'web/embed.html'), 'utf8'), 'embed.html'), figureTitles(html));
  checkCspSafe(embedHtml, 'embed.html');
  const css = await readStylesheet(join(ROOT, 'web/styles.css'));

  const figureMarkup = extractFigureMarkup(html);
  const singleFile = splitSingleFileGlue(await readFile(join(wasmDir, SINGLE_FILE_GLUE), 'utf8'));
  const modules = {
    // Each figure's title (its section's heading), for the author page's picker.
    'attention-lab:figure-titles': { contents: `export default ${JSON.stringify(figureTitles(html))};`, loader: 'js' },
    'attention-lab:figure-markup': { contents: `export default ${JSON.stringify(figureMarkup)};`, loader: 'js' },
    // The whole stylesheet, known once the page's bundle has collected the figures' CSS.
    'attention-lab:shadow-styles': () => ({ contents: `export default ${JSON.stringify(shadowStyles(styles))};`, loader: 'js' }),
    // The single-file core: the wasm inlined as base64, so the script needs no second download,
    // handed to the glue as bytes (see splitSingleFileGlue).
    'attention-lab:single-file-core': { contents: singleFile.factory, loader: 'js', resolveDir: wasmDir },
    'attention-lab:single-file-glue': { contents: singleFile.strippedGlue, loader: 'js', resolveDir: wasmDir },
  };
  const common = {
    bundle: true,
    minify: process.env.AL_MINIFY !== '0', // AL_MINIFY=0: readable names in profiles
    target: ['es2022'],
    logLevel: 'warning',
    legalComments: 'eof',
    metafile: true,
    // C++ headers imported by a figure arrive as their text, so the page shows the real code
    // (e.g. cpp/teaching/attend_one.hpp in the "by hand" figure).
    loader: { '.hpp': 'text' },
    plugins: [virtualModules(modules)],
  };
  // The page and the iframe embed share the separately loaded glue and .wasm.
  const pageResult = await esbuild.build({
    ...common,
    entryPoints: {
      main: join(ROOT, 'web/src/main.js'),
      embed: join(ROOT, 'web/src/embed.js'),
      'measured-worker': join(ROOT, 'web/src/figures/measured/worker.js'),
      // The toolbar's LMS package builder, loaded only when a reader asks for a package.
      'lms-package': join(ROOT, 'web/src/lms-package.js'),
      'learn-worker': join(ROOT, 'web/src/figures/learn/worker.js'),
    },
    outdir: outDir,
    format: 'esm',
    splitting: false,
    sourcemap: true,
  });
  // Each figure imports its own CSS, which esbuild gathers beside each bundle (main.css, the
  // same again as embed.css): the page's one stylesheet is web/styles.css followed by it.
  // (Its source map goes with it: the figures' CSS files are read as they are.)
  const figureCss = (await readFile(join(outDir, 'main.css'), 'utf8')).replace(/\/\*# sourceMappingURL=.*\*\/\s*$/, '');
  for (const name of ['main.css', 'main.css.map', 'embed.css', 'embed.css.map']) await rm(join(outDir, name), { force: true });
  const styles = `${css}\n${figureCss}`;
  // The drop-in element: one classic script (so it also runs from file://), core included;
  // its styles arrive whole through attention-lab:shadow-styles, so its CSS imports are dropped.
  const elementResult = await esbuild.build({
    ...common,
    loader: { ...common.loader, '.css': 'empty' },
    entryPoints: [join(ROOT, 'web/src/element.js')],
    outfile: join(outDir, 'attention-figure.js'),
    format: 'iife',
    // The glue asks import.meta.url for its own location, which a classic script lacks; with
    // the wasm inlined it never needs it.
    define: { 'import.meta.url': 'undefined' },
  });
  // The author page reads the figures' SETTINGS and resolveSettings, never mounts them: their
  // CSS is left out (it has its own, web/author.css, after styles.css).
  const authorResult = await esbuild.build({
    ...common,
    loader: { ...common.loader, '.css': 'empty' },
    entryPoints: { author: join(ROOT, 'web/src/author.js') },
    outdir: outDir,
    format: 'esm',
    sourcemap: true,
  });
  if (pageResult.errors.length || elementResult.errors.length || authorResult.errors.length) throw new Error('esbuild failed');
  // The learner's-sentence tagger, loaded by the page only when a learner applies a sentence.
  const tagger = await buildSentenceTagger({ outfile: join(outDir, 'sentence-tagger.js') });

  await copyFile(join(wasmDir, GLUE), join(outDir, GLUE));
  await copyFile(join(wasmDir, WASM), join(outDir, WASM));
  await writeFile(join(outDir, 'styles.css'), styles);
  await copyFile(join(ROOT, 'web/favicon.svg'), join(outDir, 'favicon.svg'));
  await copyFile(join(ROOT, 'web/attention-lab-resize.js'), join(outDir, 'attention-lab-resize.js'));
  await writeFile(join(outDir, 'index.html'), html);
  await writeFile(join(outDir, 'embed.html'), embedHtml);
  await writeFile(join(outDir, 'author.html'), authorHtml);
  await copyFile(join(ROOT, 'web/author.css'), join(outDir, 'author.css'));

  const glue = await readFile(join(outDir, GLUE), 'utf8');
  if (/\beval\s*\(|new Function\s*\(/.test(glue)) {
    console.warn(`warning: ${GLUE} contains eval/new Function; the page's CSP will block it if it runs`);
  }
  const bytesOf = (result, suffix) => result.metafile.outputs[Object.keys(result.metafile.outputs).find((f) => f.endsWith(suffix))].bytes;
  return {
    outDir,
    formulas: count,
    figures: Object.keys(figureMarkup).length,
    bundleBytes: bytesOf(pageResult, 'main.js'),
    elementBytes: bytesOf(elementResult, 'attention-figure.js'),
    taggerGzipBytes: tagger.gzipBytes,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'wasm-dir': { type: 'string' }, out: { type: 'string' } } });
  try {
    const { outDir, formulas, figures, bundleBytes, elementBytes } = await buildWeb({
      wasmDir: values['wasm-dir'] ? resolve(values['wasm-dir']) : undefined,
      outDir: values.out ? resolve(values.out) : undefined,
    });
    console.log(`build-web: wrote ${outDir} (main.js ${(bundleBytes / 1024).toFixed(1)} KiB, attention-figure.js ${(elementBytes / 1024).toFixed(1)} KiB, ${figures} figures, ${formulas} formulas as MathML)`);
  } catch (error) {
    console.error(`build-web: ${error.message}`);
    process.exit(1);
  }
}
