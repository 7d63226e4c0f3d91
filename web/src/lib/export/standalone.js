// The whole figure as one HTML file, for hosts that accept only uploads (a course's file
// area) and for reading offline: attention-figure.js (figures, styles and the WebAssembly
// core in one classic script) inlined into a page that holds one <attention-figure> at the
// current settings. It opens from file:// and needs no server.

import { escapeAttribute } from '../share/links.js';
import { slug } from './files.js';

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
 * { name, text } of the file: source is attention-figure.js's text; settings the figure's
 * current settings ({ tau: 0.5, … }); page the full page's URL (links in the copy point there),
 * or null.
 */
export function standaloneFigure({ source, figureName, title, settings, page = null }) {
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
    // The one style this page needs of its own: the element does the rest in its shadow root.
    '<style>body { margin: 0 auto; max-width: 64rem; padding: 0 1rem; }</style>',
    `<script>${inlineScriptText(source)}</script>`,
    '</head>',
    '<body>',
    `<attention-figure ${attributes.join(' ')}></attention-figure>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const setting = Object.entries(settings).map(([name, value]) => `${name}-${value}`).join('-');
  return { name: `attention-lab-${figureName}${setting ? `-${slug(setting)}` : ''}.html`, text };
}
