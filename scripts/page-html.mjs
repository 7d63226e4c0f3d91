// Checks and rewrites of the page's HTML at build time (scripts/build-web.mjs): formulas typeset
// as MathML by KaTeX, the checks that keep the page within its Content-Security-Policy and its
// formulas named, the policy as a <meta>, each figure's markup and title, and the embed's
// no-script pictures.

import katex from 'katex';
import { CSP } from './serve.mjs';

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

/**
 * Throws if a heading, link, button or label holds a formula but no aria-label: Chromium leaves
 * MathML out of accessible names, so "Why divide by √dₖ?" would be announced "Why divide by ?".
 */
export function checkFormulaNames(html, name) {
  const missing = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/<(h[1-6]|a|button|summary|label|legend|caption|th)\b([^>]*)>([\s\S]*?)<\/\1>/gi)) {
    if (/class="tex(-display)?"/.test(match[3]) && !/\saria-label\s*=\s*"[^"]*\S/.test(match[2])) {
      missing.push(`<${match[1]}${match[2]}>${match[3].replace(/\s+/g, ' ').trim().slice(0, 60)}`);
    }
  }
  if (missing.length) {
    throw new Error(`${name}: give these an aria-label that says the formula in text (MathML drops out of accessible names):\n  ${missing.join('\n  ')}`);
  }
}

/**
 * Puts the page's Content-Security-Policy into the HTML as a <meta http-equiv>, right after the
 * charset, so that a copy of dist/ on a host that sends no policy (GitHub Pages, a course's
 * file area) still runs under it. A host's own header, if any, applies as well.
 */
export function withPolicyMeta(html, name) {
  const charset = /<meta charset="utf-8">\n?/i;
  if (!charset.test(html)) throw new Error(`${name} has no <meta charset="utf-8"> to put the CSP after`);
  if (/http-equiv="Content-Security-Policy"/i.test(html)) throw new Error(`${name} already has a CSP <meta>: the build adds it`);
  return html.replace(charset, (tag) => `${tag.trimEnd()}\n  <meta http-equiv="Content-Security-Policy" content="${CSP}">\n`);
}

/**
 * Each <figure … data-figure="name">…</figure> of the rendered page, by name: the embeds
 * (embed.html and the <attention-figure> element) draw a figure from the same markup as
 * the page, so captions, labels and formulas are written once.
 */
export function extractFigureMarkup(html) {
  const markup = {};
  for (const match of html.matchAll(/<figure\b[^>]*\bdata-figure="([^"]+)"[^>]*>[\s\S]*?<\/figure>/g)) {
    markup[match[1]] = match[0];
  }
  return markup;
}

const escapeHtml = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Each figure's title, by name: the heading of the section it is in (its aria-label, or its text). */
export function figureTitles(html) {
  const titles = {};
  let heading = '';
  const plain = (text) => text.replace(/<annotation[\s\S]*?<\/annotation>/g, '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  for (const match of html.matchAll(/<h2\b([^>]*)>([\s\S]*?)<\/h2>|<figure\b[^>]*\bdata-figure="([^"]+)"/g)) {
    if (match[3]) titles[match[3]] = heading || match[3];
    else heading = /aria-label="([^"]+)"/.exec(match[1])?.[1] ?? plain(match[2]);
  }
  return titles;
}

/**
 * embed.html with a picture of each figure in its <noscript>, for where scripts cannot run (a
 * sandbox="" frame, JavaScript off): the embed code's link ends in #picture-NAME, and only
 * that figure's picture shows (styles.css, .noscript-picture:target). The pictures are
 * pictures/NAME.png, made from the core by scripts/build-pictures.mjs (dist.sh), which also
 * writes pictures/pictures.css: each one a background of its :target only, since without
 * scripts browsers load every <img> at once (loading="lazy" needs scripting), and the
 * stylesheet's <link> sits in a <noscript>, so readers with scripts never fetch it.
 */
export function withNoscriptPictures(embedHtml, titles) {
  const pictures = Object.entries(titles).map(([name, title]) => [
    `    <figure id="picture-${name}" class="noscript-picture">`,
    `      <span class="noscript-image" role="img" aria-label="${escapeHtml(`The figure \u201c${title}\u201d at its default settings`)}"></span>`,
    `      <figcaption>${escapeHtml(title)}: a picture of the figure at its default settings, since scripts cannot run here.`,
    `        <a href="index.html#figure-${name}" target="_blank" rel="noopener">Open the interactive figure</a>.</figcaption>`,
    '    </figure>',
  ].join('\n'));
  const body = /<noscript>/;
  const head = /<\/head>/;
  if (!body.test(embedHtml) || !head.test(embedHtml)) throw new Error('embed.html has no <noscript> and </head> to put the pictures in');
  return embedHtml
    .replace(body, `<noscript>\n${pictures.join('\n')}\n    `)
    .replace(head, '  <noscript><link rel="stylesheet" href="pictures/pictures.css"></noscript>\n</head>');
}
