// Disclosure buttons: a button (aria-expanded, aria-controls) that shows and hides a panel.
// Within one group at most one panel is open; Escape closes it and returns focus to its
// button, and a click outside the group's buttons and panels closes it, as menus do.

import { htmlElement, uniqueId } from '../dom/elements.js';

/**
 * A group of disclosures whose buttons go into `buttons` and panels into `panels`.
 * Returns add(label, className, { onOpen, onClose }) → { button, panel, open (get/set) }.
 * `signal` (an AbortSignal) ends the group's listener on the document when its figure goes.
 */
export function disclosureGroup(buttons, panels, { signal } = {}) {
  const menus = [];

  function add(label, className, { onOpen = () => {}, onClose = () => {} } = {}) {
    const button = htmlElement('button', {
      type: 'button', class: 'figure-tool figure-tool-toggle', 'aria-expanded': 'false',
    }, label, buttons);
    htmlElement('span', { class: 'figure-tool-caret', 'aria-hidden': 'true' }, '\u25be', button);
    const panel = htmlElement('div', { id: uniqueId('figure-panel'), class: `figure-tool-panel ${className}`, hidden: '' }, null, panels);
    button.setAttribute('aria-controls', panel.id);
    const menu = {
      button,
      panel,
      get open() {
        return !panel.hidden;
      },
      set open(value) {
        if (value === menu.open) return;
        panel.hidden = !value;
        button.setAttribute('aria-expanded', String(value));
        if (value) {
          for (const other of menus) if (other !== menu) other.open = false;
          onOpen();
        } else {
          onClose();
        }
      },
    };
    button.addEventListener('click', () => { menu.open = !menu.open; });
    const closeOnEscape = (event) => {
      if (event.key !== 'Escape' || !menu.open) return;
      event.preventDefault();
      menu.open = false;
      button.focus();
    };
    button.addEventListener('keydown', closeOnEscape);
    panel.addEventListener('keydown', closeOnEscape);
    menus.push(menu);
    return menu;
  }

  // composedPath() sees through the shadow root of the <attention-figure> element, where
  // event.target is retargeted to the host.
  document.addEventListener('click', (event) => {
    if (!event.isTrusted) return; // the export's own synthetic click on its download link
    const path = event.composedPath();
    for (const menu of menus) if (menu.open && !path.includes(menu.button) && !path.includes(menu.panel)) menu.open = false;
  }, { signal });

  return add;
}
