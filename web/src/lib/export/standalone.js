// The whole figure as one HTML file, for hosts that accept only uploads (a course's file
// area) and for reading offline: attention-figure.js (figures, styles and the WebAssembly
// core in one classic script) inlined into a page that holds one <attention-figure> at the
// current settings. It opens from file:// and needs no server.

import { escapeAttribute } from '../share/links.js';
import { fallbackHtml } from './fallback.js';
import { slug } from './files.js';

const MAX_NAME_SETTINGS = 40; // characters of settings in the file's name

const escapeText = (text) => String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Script text made safe inside <script>…</script>: "</script" would end the element early and
 * "<!--" would switch the parser into its escaped mode. Inside the script's strings and regular
 * expressions (the only places the minified code can hold them), "<\/" and "<\!" read the same.
 */
function inlineScriptText(source) {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * A short, clean file name: the figure's name and the settings that differ from their
 * defaults (changed, { tau: '0.5' }), cut at a word when they run long.
 */
export function standaloneName(figureName, changed = {}) {
  let setting = slug(Object.entries(changed).map(([name, value]) => `${name}-${value}`).join('-'));
  if (setting === 'export') setting = '';
  if (setting.length > MAX_NAME_SETTINGS) setting = setting.slice(0, MAX_NAME_SETTINGS).replace(/-[^-]*$/, '');
  return `attention-lab-${figureName}${setting ? `-${setting}` : ''}.html`;
}

/**
 * { name, text } of the file: source is attention-figure.js's text; settings the figure's
 * current settings ({ tau: 0.5, … }), changed those of them that differ from their defaults
 * (for the file's name); page the full page's URL (links in the copy point there), or null;
 * link the link to this figure at these settings on that page (for where scripts cannot run);
 * picture the figure as drawn now (fallback.js's figurePicture), or null.
 */
export function standaloneFigure({
  source, figureName, title, settings, changed = settings, page = null, link = null, picture = null,
}) {
  const attributes = [`name="${escapeAttribute(figureName)}"`];
  if (page) attributes.push(`page="${escapeAttribute(page.href ?? page)}"`);
  for (const [name, value] of Object.entries(settings)) attributes.push(`${name}="${escapeAttribute(value)}"`);
  const text = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    '<link rel="icon" href="data:,">',
    // No <style>: the element styles itself in its shadow root. The one script cannot be a
    // file of its own; where it cannot run, the element's content below is shown instead.
    `<script>${inlineScriptText(source)}</script>`,
    '</head>',
    '<body>',
    `<attention-figure ${attributes.join(' ')}>`,
    fallbackHtml({ picture, title, settings, href: link ?? (page ? String(page.href ?? page) : null) }),
    '</attention-figure>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { name: standaloneName(figureName, changed), text };
}
