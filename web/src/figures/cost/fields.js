// The cost figure's inputs: the four counts as typed fields (whatever the learner typed is
// kept, valid or not), "same as n" beside the keys field (self-attention has m = n), and the
// bytes per number. They report each edit; the figure reads them and commits only a valid set.

import { createNumberField } from '../../lib/controls/number-field.js';
import { createPicker } from '../../lib/controls/picker.js';
import { createToggle } from '../../lib/controls/toggle.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { BYTE_CHOICES } from './settings.js';

/**
 * @param {HTMLElement} body
 * @param {object} options  state (the store: initial bytes, fill()), onEdit(name, { committed }):
 *   a field ('n', 'm', 'd', 'h', 'bytes') changed; committed is false while the learner types
 */
export function createCostFields(body, { state, onEdit }) {
  const controls = htmlElement('div', { class: 'figure-controls cost-fields' }, null, body);
  const edited = (name) => (text, { committed }) => {
    if (name === 'n' && same.checked) fields.m.input.value = fields.n.input.value;
    onEdit(name, { committed });
  };
  const fields = {
    n: createNumberField(controls, { label: 'queries n', hint: 'tokens that ask', onInput: edited('n') }),
    m: createNumberField(controls, { label: 'keys m', hint: 'tokens that answer', onInput: edited('m') }),
    d: createNumberField(controls, { label: 'width d_model', hint: 'numbers per token', onInput: edited('d') }),
    h: createNumberField(controls, { label: 'heads h', hint: 'must divide d_model', onInput: edited('h') }),
  };
  // "same as n" sits with the keys field. It is committed with the fields, once they compute,
  // so it sets no key itself.
  const same = createToggle(fields.m.element, {
    label: 'same as n (self-attention)',
    inline: true,
    onChange: () => {
      syncSame();
      onEdit('m', { committed: true });
    },
  });
  const bytes = createPicker(controls, {
    label: 'bytes per number',
    options: BYTE_CHOICES,
    value: state.get('cost.bytes'),
    onChange: () => onEdit('bytes', { committed: true }),
  });

  function syncSame() {
    fields.m.input.disabled = same.checked;
    if (same.checked) fields.m.input.value = fields.n.input.value;
  }

  return {
    fields,
    get same() {
      return same.checked;
    },
    get bytes() {
      return bytes.value;
    },
    /** The fields from the store: at the start, and when an element's attributes change it. */
    fill() {
      fields.n.input.value = String(state.get('cost.n'));
      fields.m.input.value = String(state.get('cost.m'));
      fields.d.input.value = String(state.get('cost.d'));
      fields.h.input.value = String(state.get('cost.h'));
      same.set(state.get('cost.same'));
      bytes.set(state.get('cost.bytes'));
      syncSame();
    },
    /** A preset's layer: self-attention, at 32-bit floats (the lesson's figures are for those). */
    preset({ n, d, h }) {
      fields.n.input.value = String(n);
      fields.d.input.value = String(d);
      fields.h.input.value = String(h);
      same.set(true);
      bytes.set('4');
      syncSame();
    },
  };
}
