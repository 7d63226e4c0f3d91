// A box that scrolls sideways only when its content is too wide for it: a display formula or
// a table on a narrow phone. While the content overflows, a keyboard user must be able to
// reach the box to scroll it (WCAG 2.1.1; axe's "scrollable-region-focusable"), so it becomes
// a tab stop with a name (role="region" + aria-label). While everything fits, it stays out of
// the tab order and out of the screen reader's list of regions. Resizing, zooming, late fonts
// and content that changes width are all re-checked.
//
// Every box watched costs every frame that lays anything out a check of its size (Chromium
// gathers all ResizeObserver targets then), so a box is watched only where nothing else knows:
// a box whose content never changes size watches the box alone, and a chart that sizes itself
// (a heat map knows when it is wider than its frame) says so itself (ownedScrollRegion).
//
// Usage: scrollableWhenOverflowing(element, 'formula, scrolls sideways', { watchContent: false })
//        const setOverflowing = ownedScrollRegion(frame, 'map, scrolls sideways'); setOverflowing(true)

const labels = new WeakMap(); // element → its accessible name while it overflows
const watched = new Map(); // box → the first child observed with it (or null)
let observer = null;

function scrollsIn(style, axis) {
  return /^(auto|scroll)$/.test(style.getPropertyValue(`overflow-${axis}`));
}

/** True when the element's content is wider (or taller) than it along an axis it may scroll in. */
export function overflows(element) {
  const style = getComputedStyle(element);
  return (element.scrollWidth > element.clientWidth + 1 && scrollsIn(style, 'x'))
    || (element.scrollHeight > element.clientHeight + 1 && scrollsIn(style, 'y'));
}

function update(element) {
  if (element.isConnected) mark(element, overflows(element));
}

/** Makes `element` a named tab stop (overflowing) or takes it out of the tab order. */
function mark(element, overflowing) {
  const label = labels.get(element);
  if (!label) return;
  if (overflowing) {
    if (element.dataset.scrollRegion === 'on') return;
    element.dataset.scrollRegion = 'on';
    element.setAttribute('tabindex', '0');
    element.setAttribute('role', 'region');
    element.setAttribute('aria-label', label);
  } else if (element.dataset.scrollRegion === 'on') {
    delete element.dataset.scrollRegion;
    element.removeAttribute('tabindex');
    element.removeAttribute('role');
    element.removeAttribute('aria-label');
  }
}

/**
 * Makes `element` a named tab stop exactly while its content overflows it.
 * The element should have overflow-x (or overflow-y) auto or scroll in CSS. The first check
 * runs with the observer's first report, before the next frame is painted. watchContent:
 * false when the content's size follows the box's or never changes (a typeset formula; a
 * late font is re-checked anyway), so only the box is watched.
 */
export function scrollableWhenOverflowing(element, label, { watchContent = true } = {}) {
  if (!observer) {
    // The box changes size with the viewport; its first child changes size with its content.
    observer = new ResizeObserver((entries) => {
      for (const entry of entries) update(labels.has(entry.target) ? entry.target : entry.target.parentElement);
    });
    // A math or monospace font that arrives late changes widths without resizing any box.
    document.fonts?.ready.then(() => { for (const box of watched.keys()) update(box); });
  }
  labels.set(element, label);
  const content = watchContent ? element.firstElementChild : null;
  watched.set(element, content);
  observer.observe(element);
  if (content) observer.observe(content);
}

/**
 * A scroll box whose owner knows, without reading layout, when its content overflows it (a
 * chart that sizes itself for its frame): nothing is observed. Returns set(overflowing), to call
 * whenever that changes; renameScrollRegion() renames it as any other.
 */
export function ownedScrollRegion(element, label) {
  labels.set(element, label);
  return (overflowing) => mark(element, overflowing);
}

/**
 * Stops watching the boxes inside `root` (a figure that has gone), and any box no longer in
 * a document, so the shared observer does not keep them alive.
 */
export function releaseScrollRegions(root) {
  for (const [box, child] of [...watched]) {
    if (box.isConnected && !root.contains(box)) continue;
    observer?.unobserve(box);
    if (child) observer?.unobserve(child);
    watched.delete(box);
  }
}

/** Gives a watched box a new accessible name (used while it overflows). */
export function renameScrollRegion(element, label) {
  if (!labels.has(element)) return;
  labels.set(element, label);
  if (element.dataset.scrollRegion === 'on') element.setAttribute('aria-label', label);
}
