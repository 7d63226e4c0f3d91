// The "by hand" figure's C++: the short function of cpp/teaching/attend_one.hpp (bundled as
// text), with the lines of the current step highlighted.

import attendOneHeader from '../../../../cpp/teaching/attend_one.hpp';
import { htmlElement } from '../../lib/dom/elements.js';
import { STEPS, codeLines } from './model.js';

/** Builds the code box into `parent`; returns { render(step) }. */
export function createCodeBox(parent) {
  const codeBox = htmlElement('div', { class: 'by-hand-code-box' }, null, parent);
  htmlElement('p', { class: 'panel-title' }, 'The same four steps in C++ (cpp/teaching/attend_one.hpp)', codeBox);
  const pre = htmlElement('pre', { class: 'by-hand-code', tabindex: 0, 'aria-label': 'C++ function for one query' }, null, codeBox);
  const code = htmlElement('code', {}, null, pre);
  const lines = codeLines(attendOneHeader).map(({ text, step }) => {
    const span = htmlElement('span', { class: 'code-line', 'data-step': step }, `${text}\n`, code);
    return { span, step };
  });
  const codeNote = htmlElement('p', { class: 'by-hand-code-note' }, null, codeBox);

  return {
    render(step) {
      let first = 0;
      let last = 0;
      lines.forEach(({ span, step: lineStep }, i) => {
        const current = lineStep === step;
        span.classList.toggle('code-line-current', current);
        if (current) {
          if (!first) first = i + 1;
          last = i + 1;
        }
      });
      codeNote.textContent = `Highlighted: lines ${first}\u2013${last}, step ${step} (${STEPS[step - 1].title.toLowerCase()}).`;
    },
  };
}
