#!/usr/bin/env node
// Builds the static page into build/web/:
//   main.js (+ .map)          web/src/main.js bundled by esbuild (ES module, minified)
//   attention_lab_web.mjs     the Emscripten glue, copied as is and imported at run time
//   attention_lab_web.wasm    the compiled core
//   index.html                web/index.html with every formula rendered to MathML by KaTeX
//   styles.css, favicon.svg   copied
//
// The page must run under `default-src 'self'; script-src 'self' 'wasm-unsafe-eval';
// style-src 'self'; img-src 'self' data:`, so the build refuses to emit HTML with inline
// scripts, style attributes or event-handler attributes.
//
// Usage: node scripts/build-web.mjs [--wasm-dir build/wasm] [--out build/web]

import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import katex from 'katex';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GLUE = 'attention_lab_web.mjs';
const WASM = 'attention_lab_web.wasm';

const HTML_ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]);
}

/**
 * Replaces the contents of <span class="tex">…</span> (inline) and <div class="tex-display">…</div>
 * (display) with KaTeX's MathML. MathML output carries no style attributes and needs no
 * script or stylesheet: the browser typesets it natively.
 */
export function renderFormulas(html) {
  let count = 0;
  const render = (tex, displayMode) => {
    count += 1;
    try {
      return katex.renderToString(decodeEntities(tex).trim(), { output: 'mathml', displayMode, throwOnError: true, strict: 'error' });
    } catch (error) {
      throw new Error(`KaTeX could not render formula #${count} "${tex.trim()}": ${error.message}`);
    }
  };
  const out = html
    .replace(/(<span class="tex">)([\s\S]*?)(<\/span>)/g, (_, open, tex, close) => open + render(tex, false) + close)
    .replace(/(<div class="tex-display">)([\s\S]*?)(<\/div>)/g, (_, open, tex, close) => open + render(tex, true) + close);
  return { html: out, count };
}

/** Throws if the HTML contains anything the page's Content-Security-Policy would block. */
export function checkCspSafe(html, name) {
  const problems = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\bsrc=/.test(match[1]) || match[2].trim() !== '') problems.push('an inline <script>');
  }
  if (/\sstyle\s*=/i.test(withoutComments)) problems.push('a style= attribute');
  if (/<style\b/i.test(withoutComments)) problems.push('a <style> element');
  if (/\son[a-z]+\s*=/i.test(withoutComments)) problems.push('an inline event handler (on…=)');
  if (/(src|href)\s*=\s*["']?(https?:)?\/\//i.test(withoutComments)) problems.push('a reference to another origin');
  if (problems.length) throw new Error(`${name} would break the page's CSP: it contains ${[...new Set(problems)].join(', ')}`);
}

async function requireFile(path, hint) {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size === 0) throw new Error('empty or not a file');
  } catch {
    throw new Error(`missing ${path}\n${hint}`);
  }
}

export async function buildWeb({ wasmDir = join(ROOT, 'build/wasm'), outDir = join(ROOT, 'build/web') } = {}) {
  const hint = 'Build the WebAssembly core first: bash scripts/build-core.sh';
  await requireFile(join(wasmDir, GLUE), hint);
  await requireFile(join(wasmDir, WASM), hint);

  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'web/src/main.js')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    format: 'esm',
    minify: true,
    sourcemap: true,
    target: ['es2022'],
    logLevel: 'warning',
    legalComments: 'eof',
    metafile: true,
    // C++ headers imported by a figure arrive as their text, so the page shows the real code
    // (e.g. cpp/teaching/attend_one.hpp in the "by hand" figure).
    loader: { '.hpp': 'text' },
  });
  if (result.errors.length) throw new Error('esbuild failed');

  await copyFile(join(wasmDir, GLUE), join(outDir, GLUE));
  await copyFile(join(wasmDir, WASM), join(outDir, WASM));
  await copyFile(join(ROOT, 'web/styles.css'), join(outDir, 'styles.css'));
  await copyFile(join(ROOT, 'web/favicon.svg'), join(outDir, 'favicon.svg'));

  const source = await readFile(join(ROOT, 'web/index.html'), 'utf8');
  const { html, count } = renderFormulas(source);
  checkCspSafe(html, 'index.html');
  await writeFile(join(outDir, 'index.html'), html);

  const glue = await readFile(join(outDir, GLUE), 'utf8');
  if (/\beval\s*\(|new Function\s*\(/.test(glue)) {
    console.warn(`warning: ${GLUE} contains eval/new Function; the page's CSP will block it if it runs`);
  }
  const bundleBytes = result.metafile.outputs[Object.keys(result.metafile.outputs).find((f) => f.endsWith('main.js'))].bytes;
  return { outDir, formulas: count, bundleBytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'wasm-dir': { type: 'string' }, out: { type: 'string' } } });
  try {
    const { outDir, formulas, bundleBytes } = await buildWeb({
      wasmDir: values['wasm-dir'] ? resolve(values['wasm-dir']) : undefined,
      outDir: values.out ? resolve(values.out) : undefined,
    });
    console.log(`build-web: wrote ${outDir} (main.js ${(bundleBytes / 1024).toFixed(1)} KiB, ${formulas} formulas as MathML)`);
  } catch (error) {
    console.error(`build-web: ${error.message}`);
    process.exit(1);
  }
}
