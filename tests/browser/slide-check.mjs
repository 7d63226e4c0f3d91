// What "fits a slide and reads from the back of the room" means, measured in the page: shared
// by slide.test.mjs and reveal-host.test.mjs. Pass slideReport to page.evaluate (or to a
// locator's evaluate) with the root to measure: the embed's document, or an element whose
// shadow root holds the figure.

/** Body text on a slide is at least this big (px). */
export const MIN_TEXT_PX = 18;
/** Text inside the SVG charts (tick labels, the values printed in heat-map cells): at least this. */
export const MIN_CHART_TEXT_PX = 16;

/**
 * Runs in the browser. Returns { small, scrolling, figureBox }: every visible text node whose
 * font is smaller than the floor (HTML text MIN_TEXT_PX, SVG text MIN_CHART_TEXT_PX), every box
 * whose content scrolls inside it (overflow auto or scroll, and more content than room), and
 * the figure's box. `host` is an element with a shadow root, or null for the document.
 */
export function slideReport({ host = null, minText, minChartText }) {
  const root = host ? host.shadowRoot : document;
  const scope = host ? root : document.body;
  const small = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest('.visually-hidden, option, style, script')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue; // not rendered (a hidden step, a closed panel)
    const style = getComputedStyle(parent);
    if (style.visibility !== 'visible') continue;
    const size = parseFloat(style.fontSize);
    const floor = parent.closest('svg') ? minChartText : minText;
    if (size < floor) small.push(`${size.toFixed(1)} px < ${floor}: "${node.textContent.trim().slice(0, 30)}" in ${parent.tagName.toLowerCase()}.${parent.getAttribute('class') ?? ''}`);
  }
  const scrolling = [];
  for (const element of root.querySelectorAll('*')) {
    const style = getComputedStyle(element);
    const x = /auto|scroll/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1;
    const y = /auto|scroll/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
    if (x || y) scrolling.push(`${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} scrolls ${x ? 'sideways' : ''}${x && y ? ' and ' : ''}${y ? 'down' : ''}`);
  }
  const figure = root.querySelector('.figure');
  const box = figure?.getBoundingClientRect();
  return {
    small: [...new Set(small)],
    scrolling,
    figureBox: box ? { top: box.top, left: box.left, bottom: box.bottom, right: box.right, width: box.width, height: box.height } : null,
  };
}

/** The report's own arguments for the two floors. */
export const FLOORS = { minText: MIN_TEXT_PX, minChartText: MIN_CHART_TEXT_PX };
