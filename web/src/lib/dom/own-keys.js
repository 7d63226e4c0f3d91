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
const PRESSING_CONTROLS = 'button, summary, a[href], input[type="checkbox"], input[type="radio"], [role="button"], '
  + '[role="switch"], [role="checkbox"], [role="tab"], select';

/** True when the figure's own control under the key press uses this key. */
function controlUsesKey(target, key) {
  if (!(target instanceof Element)) return false;
  if (key === 'Escape' || key === 'Tab') return false;
  if (target.closest(TYPING_FIELDS)) return true;
  if (MOVING_KEYS.has(key) && target.closest(MOVING_CONTROLS)) return true;
  return PRESSING_KEYS.has(key) && target.closest(PRESSING_CONTROLS) !== null;
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
