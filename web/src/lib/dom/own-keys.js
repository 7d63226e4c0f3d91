// Keys that a focused control of a figure acts on stay with the figure. A host page that listens
// for keys itself (a reveal.js deck turns the slide on an arrow key) would otherwise act on the
// same press: the slider moves and the slide flips. Keys a control does not use (Escape, Tab,
// the slide keys when no control has focus) still reach the host.

// What each kind of control does with the keyboard.
const MOVING_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);
const PRESSING_KEYS = new Set([' ', 'Enter']);
const TYPING_FIELDS = 'textarea, [contenteditable=""], [contenteditable="true"], '
  + 'input:not([type]), input[type="text"], input[type="number"], input[type="search"], input[type="email"], input[type="url"]';
const MOVING_CONTROLS = 'input[type="range"], select, [role="slider"], [role="spinbutton"], [role="grid"], [role="gridcell"], '
  + '[role="tab"], [role="radio"], [role="listbox"], [role="option"], [role="menu"], [role="menuitem"], input[type="radio"]';
// A focusable box that scrolls (role="region" tabindex="0" round a wide table or matrix, the
// by-hand code's <pre>): the arrows, Page Up/Down, Home, End and Space scroll it, along the
// axis it overflows in. Along an axis it does not scroll in, the key is the host's.
const SCROLL_BOXES = '[role="region"][tabindex], pre[tabindex]';
const SIDEWAYS_KEYS = new Set(['ArrowLeft', 'ArrowRight']);
const UP_DOWN_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);
const PRESSING_CONTROLS = 'button, summary, a[href], input[type="checkbox"], input[type="radio"], [role="button"], '
  + '[role="switch"], [role="checkbox"], [role="tab"], select';

/** True when the scroll box `box` scrolls with this key: it overflows along the key's axis. */
function scrollBoxUses(box, key) {
  const style = getComputedStyle(box);
  const scrolls = (axis) => /^(auto|scroll)$/.test(style.getPropertyValue(`overflow-${axis}`));
  if (SIDEWAYS_KEYS.has(key)) return box.scrollWidth > box.clientWidth + 1 && scrolls('x');
  if (UP_DOWN_KEYS.has(key)) return box.scrollHeight > box.clientHeight + 1 && scrolls('y');
  return false;
}

/** True when the figure's own control under the key press uses this key. */
function controlUsesKey(target, key) {
  if (!(target instanceof Element)) return false;
  if (key === 'Escape' || key === 'Tab') return false;
  if (target.closest(TYPING_FIELDS)) return true;
  if (MOVING_KEYS.has(key) && target.closest(MOVING_CONTROLS)) return true;
  if (PRESSING_KEYS.has(key) && target.closest(PRESSING_CONTROLS)) return true;
  const box = target.closest(SCROLL_BOXES);
  return box !== null && scrollBoxUses(box, key);
}

/**
 * Stops the key events a control of `root` (a shadow root) uses from going on to the host page.
 * Returns a function that removes the listeners.
 */
export function keepOwnKeys(root) {
  const keep = (event) => {
    if (controlUsesKey(event.composedPath()[0], event.key)) event.stopPropagation();
  };
  const types = ['keydown', 'keypress', 'keyup'];
  for (const type of types) root.addEventListener(type, keep);
  return () => { for (const type of types) root.removeEventListener(type, keep); };
}
