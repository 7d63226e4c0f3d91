// What the <attention-figure> element knows of the page it is on (element.js): the script tag
// it came from (where the full page lives, its own text for the one-file download), the one
// stylesheet every shadow root shares, and the host's colour scheme, looked at again when the
// host switches its theme.

import STYLES from 'attention-lab:shadow-styles';

// Read while this script runs: the whole bundle is evaluated then, as one classic script.
const script = document.currentScript;
// This script's own text when it is inline (the one-file download, lib/export/standalone.js),
// so that copy can download itself again; otherwise it is fetched from its address.
const INLINE_SOURCE = script && !script.src ? script.textContent : null;
const SCRIPT_URL = script?.src ? new URL(script.src) : null;
const isWeb = (url) => url?.protocol === 'https:' || url?.protocol === 'http:';

/**
 * Where the full page lives when an element names no `page`: the script tag's data-page, or
 * index.html beside this script when it was loaded over http(s) (dist/ keeps them together).
 * A copy opened from file:// or inlined into a page knows no page: null.
 */
function defaultPage() {
  if (script?.dataset.page) {
    try {
      const url = new URL(script.dataset.page, document.baseURI);
      if (isWeb(url)) return url;
    } catch { /* fall through */ }
  }
  return isWeb(SCRIPT_URL) ? new URL('index.html', SCRIPT_URL) : null;
}
export const DEFAULT_PAGE = defaultPage();
/** The folder this script was served from, where embed.html and its files are too (or null). */
export const SCRIPT_FOLDER = isWeb(SCRIPT_URL) ? new URL('./', SCRIPT_URL) : null;

/** This script's text, for the one-file download. */
export async function standaloneSource() {
  if (INLINE_SOURCE) return INLINE_SOURCE;
  if (!SCRIPT_URL) throw new Error('this copy of attention-figure.js has no address to read it from');
  const response = await fetch(SCRIPT_URL);
  if (!response.ok) throw new Error(`attention-figure.js answered ${response.status}`);
  return response.text();
}

let sheet = null;

/** The figures' styles, one constructed sheet adopted by every element's shadow root. */
export function sharedSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
  }
  return sheet;
}

const live = new Set(); // connected elements, re-themed when the host page's scheme may have changed
let hostWatch = null;

/**
 * Keeps `element` (one with refreshTheme()) in step with the host's scheme while it is in the
 * page. A host page switching its own theme usually flips a class or attribute on <html> or
 * <body> (and with it the color-scheme the elements inherit): look again then. Returns a
 * function that stops watching for this element.
 */
export function followHostScheme(element) {
  live.add(element);
  if (!hostWatch) {
    hostWatch = new MutationObserver(() => live.forEach((each) => each.refreshTheme()));
    const options = { attributes: true, attributeFilter: ['class', 'style', 'data-theme', 'data-color-scheme', 'data-mode'] };
    hostWatch.observe(document.documentElement, options);
    if (document.body) hostWatch.observe(document.body, options);
  }
  return () => live.delete(element);
}
