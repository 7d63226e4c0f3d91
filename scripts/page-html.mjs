// Checks and rewrites of the page's HTML at build time (scripts/build-web.mjs): formulas typeset
// as MathML by KaTeX, and the checks that keep the page within its Content-Security-Policy and
// its formulas named.

import katex from 'katex';

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
