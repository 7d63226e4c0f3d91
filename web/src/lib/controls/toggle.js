// An on/off control: a real checkbox with its visible label (clicking the label toggles it;
// Space toggles it from the keyboard; screen readers say its name and "checked"), and an
// optional hint it is described by. Bound to an on/off setting of the store ({ state, key }:
// it shows the setting, follows its changes and sets it), or free ({ checked, onChange }) for
// a figure that commits the choice with other fields.

import { htmlElement, uniqueId } from '../dom/elements.js';

/**
 * @param {HTMLElement} container
 * @param {object} options
 * @param {string} options.label
 * @param {string} [options.hint]        a line under the control that describes it
 * @param {object} [options.state]       the store, with
 * @param {string} [options.key]         the on/off setting ({ type: 'boolean' }) it shows and sets
 * @param {boolean} [options.checked]    without a key: whether it starts on
 * @param {(on: boolean) => void} [options.onChange]  the learner's change (after the setting's)
 * @param {boolean} [options.inline]     a line of its own among other controls (regular weight,
 *                                       a smaller box) rather than a control of the figure's row
 */
export function createToggle(container, {
  label, hint = null, state = null, key = null, checked = false, onChange = () => {}, inline = false,
}) {
  const id = uniqueId('toggle');
  const hintId = hint ? `${id}-hint` : null;
  const element = htmlElement('div', { class: inline ? 'control-toggle control-toggle-inline' : 'control control-toggle' }, null, container);
  const input = htmlElement('input', { type: 'checkbox', id, 'aria-describedby': hintId }, null, element);
  htmlElement('label', { for: id, class: 'control-toggle-label' }, label, element);
  if (hint) htmlElement('p', { id: hintId, class: 'control-hint' }, hint, element);

  input.addEventListener('change', () => {
    if (key) state.set(key, input.checked);
    onChange(input.checked);
  });
  const toggle = {
    element,
    input,
    get checked() {
      return input.checked;
    },
    /** Shows a value from elsewhere without calling onChange. */
    set(on) {
      input.checked = Boolean(on);
    },
  };
  if (key) {
    toggle.set(state.get(key));
    state.subscribe(key, (on) => toggle.set(on));
  } else {
    toggle.set(checked);
  }
  return toggle;
}
