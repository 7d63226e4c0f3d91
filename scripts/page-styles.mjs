// The page's one stylesheet at build time (scripts/build-web.mjs): web/styles.css with its
// @imports inlined, and the same made to work inside the <attention-figure> element's shadow root.

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A stylesheet with its `@import "./file.css";` lines replaced by those files, in place, so the
 * page and the element's shadow root get one sheet and no further requests (which a strict CSP
 * and file:// would refuse anyway).
 */
export async function readStylesheet(path) {
  const text = await readFile(path, 'utf8');
  const parts = [];
  for (const line of text.split('\n')) {
    const match = /^@import\s+"([^"]+)";/.exec(line);
    parts.push(match ? await readStylesheet(join(dirname(path), match[1])) : line);
  }
  return parts.join('\n');
}

/**
 * The page's stylesheet made to work inside the element's shadow root: :root rules also apply
 * to :host, and a layout that the page picks by the window's width (@media (min-width: …))
 * is picked by the element's own width (@container), so a figure in a 400 px sidebar takes
 * its narrow layout on a wide screen. The host is that container; the frame inside it
 * (element.js) carries the colours, so that the frame's color-scheme picks them.
 */
export function shadowStyles(css) {
  const hostBase = [
    ':host { display: block; container: attention-figure / inline-size; }',
    ':host([hidden]) { display: none; }',
    // Text properties inherit into a shadow root: a slide deck's 42 px centred capitals would
    // reach every line of the figure. The frame sets each one back to what the page uses, so the
    // host can change the figure only through the documented --al-* properties.
    '.al-frame { display: flow-root; font-family: var(--al-font); color: var(--al-fg); background: var(--al-bg);',
    '  font-size: var(--al-text-size); line-height: var(--al-line); font-style: normal; font-weight: 400;',
    '  font-variant: normal; font-stretch: normal; text-align: start; text-indent: 0; text-transform: none;',
    '  letter-spacing: normal; word-spacing: normal; white-space: normal; text-shadow: none;',
    '  text-decoration: none; -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }',
    '',
  ].join('\n');
  const widthOnly = /@media\s*(\((?:min|max)-width:\s*[^)]+\)(?:\s+and\s*\((?:min|max)-width:\s*[^)]+\))*)\s*\{/g; // minified CSS drops the spaces
  return hostBase + css.replace(/:root\b/g, ':root, :host').replace(widthOnly, '@container attention-figure $1 {');
}
