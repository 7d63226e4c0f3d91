// A box that scrolls sideways only when its content is too wide for it: a display formula or
// a table on a narrow phone. While the content overflows, a keyboard user must be able to
// reach the box to scroll it (WCAG 2.1.1; axe's "scrollable-region-focusable"), so it becomes
// a tab stop with a name (role="region" + aria-label). While everything fits, it stays out of
// the tab order and out of the screen reader's list of regions. Resizing, zooming, late fonts
// and content that changes width are all re-checked.
//
// Usage: scrollableWhenOverflowing(element, 'formula, scrolls sideways')

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
  const label = labels.get(element);
  if (!label || !element.isConnected) return;
  if (overflows(element)) {
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
 * runs with the observer's first report, before the next frame is painted.
 */
export function scrollableWhenOverflowing(element, label) {
  if (!observer) {
    // The box changes size with the viewport; its first child changes size with its content.
    observer = new ResizeObserver((entries) => {
      for (const entry of entries) update(labels.has(entry.target) ? entry.target : entry.target.parentElement);
    });
    // A math or monospace font that arrives late changes widths without resizing any box.
    document.fonts?.ready.then(() => { for (const box of watched.keys()) update(box); });
  }
  labels.set(element, label);
  watched.set(element, element.firstElementChild);
  observer.observe(element);
  if (element.firstElementChild) observer.observe(element.firstElementChild);
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
