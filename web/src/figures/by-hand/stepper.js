// The right half of the "by hand" figure: the four steps as tabs, each with its working and a
// predict-then-check form, and a running table of all four steps for the current query.

import { parseNumber } from '../../lib/controls/number-field.js';
import { scrollableWhenOverflowing } from '../../lib/dom/scroll-region.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import {
  CLOSE_WITHIN, KEY_IDS, NAME, RIGHT_WITHIN, STEPS, fmt, fmtComponent, fmtVector, judge, truthOf,
} from './model.js';

/**
 * Builds the stepper into `parent`. onChecked(step) runs after the learner checked the
 * predictions of a step (1-based), so the figure can uncover its numbers.
 * Returns { render(step), renderWorking(result, covered), clearFeedback(), check(index) }.
 */
export function createStepper(parent, { state, getResult, onChecked }) {
  const stepKey = `${NAME}.step`;
  const right = htmlElement('div', { class: 'figure-panel by-hand-steps' }, null, parent);
  const stepNav = htmlElement('div', { class: 'by-hand-step-nav' }, null, right);
  const previous = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Previous step', stepNav);
  const stepCount = htmlElement('span', { class: 'by-hand-step-count', 'aria-live': 'polite' }, null, stepNav);
  const next = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Next step', stepNav);
  previous.addEventListener('click', () => state.set(stepKey, state.get(stepKey) - 1));
  next.addEventListener('click', () => state.set(stepKey, state.get(stepKey) + 1));

  const tabList = htmlElement('ol', { class: 'by-hand-tabs', role: 'tablist', 'aria-label': 'the four steps' }, null, right);
  const tabs = [];
  const stepPanels = [];
  STEPS.forEach((step, index) => {
    const tabId = uniqueId('by-hand-tab');
    const panelId = uniqueId('by-hand-panel');
    const item = htmlElement('li', { role: 'presentation' }, null, tabList);
    const tab = htmlElement('button', {
      type: 'button', role: 'tab', id: tabId, 'aria-controls': panelId, class: 'by-hand-tab',
    }, `${index + 1}. ${step.title}`, item);
    tab.addEventListener('click', () => state.set(stepKey, index + 1));
    tab.addEventListener('keydown', (event) => {
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      let target = null;
      if (moves[event.key]) target = (index + moves[event.key] + STEPS.length) % STEPS.length;
      if (event.key === 'Home') target = 0;
      if (event.key === 'End') target = STEPS.length - 1;
      if (target === null) return;
      event.preventDefault();
      state.set(stepKey, target + 1);
      tabs[target].focus();
    });
    tabs.push(tab);

    const panel = htmlElement('div', { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'by-hand-step-panel' }, null, right);
    htmlElement('p', { class: 'by-hand-step-text' }, step.text, panel);
    const working = htmlElement('ul', { class: 'by-hand-working', 'aria-label': `working of step ${index + 1}` }, null, panel);
    const form = htmlElement('form', { class: 'by-hand-predict', novalidate: '' }, null, panel);
    const fieldset = htmlElement('fieldset', {}, null, form);
    htmlElement('legend', {}, 'Predict, then check', fieldset);
    const guessInputs = step.guesses.map((label) => {
      const id = uniqueId('by-hand-guess');
      const line = htmlElement('p', { class: 'by-hand-guess' }, null, fieldset);
      htmlElement('label', { for: id }, label, line);
      return htmlElement('input', { type: 'text', id, inputmode: 'decimal', autocomplete: 'off', class: 'by-hand-guess-input' }, null, line);
    });
    const buttons = htmlElement('p', { class: 'by-hand-button-row' }, null, fieldset);
    htmlElement('button', { type: 'submit', class: 'by-hand-button by-hand-primary' }, 'Check', buttons);
    htmlElement('p', { class: 'by-hand-tolerance' },
      `Right means within \u00b1${RIGHT_WITHIN} of the core's value, close within \u00b1${CLOSE_WITHIN}.`, fieldset);
    const feedback = htmlElement('ul', { class: 'by-hand-feedback', 'aria-live': 'polite', 'aria-label': `feedback on step ${index + 1}` }, null, form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      check(index, guessInputs, feedback);
    });
    stepPanels.push({ panel, working, feedback });
  });

  // The running table: all four steps for the current query, the current one outlined.
  const tableWrap = htmlElement('div', { class: 'by-hand-table-wrap' }, null, right);
  const table = htmlElement('table', { class: 'by-hand-table' }, null, tableWrap);
  scrollableWhenOverflowing(tableWrap, 'table of the four steps, scrolls sideways');
  htmlElement('caption', {}, 'All four steps for the current query', table);
  const headRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  htmlElement('th', { scope: 'col' }, 'step', headRow);
  for (const id of KEY_IDS) htmlElement('th', { scope: 'col' }, `key ${id.slice(1)}`, headRow);
  const tbody = htmlElement('tbody', {}, null, table);
  const tableRows = ['dot products', 'scaled scores', 'weights', 'output'].map((label, index) => {
    const tr = htmlElement('tr', {}, null, tbody);
    htmlElement('th', { scope: 'row' }, `${index + 1} ${label}`, tr);
    const cells = index === 3
      ? [htmlElement('td', { colspan: 3, class: 'by-hand-num' }, null, tr)]
      : KEY_IDS.map(() => htmlElement('td', { class: 'by-hand-num' }, null, tr));
    return { tr, cells };
  });

  function check(index, inputs, feedback) {
    const result = getResult();
    if (!result) return;
    const truth = truthOf(result, index);
    feedback.replaceChildren();
    inputs.forEach((input, j) => {
      const guess = parseNumber(input.value);
      const label = STEPS[index].guesses[j].replace(/^your /, '');
      let verdict;
      let text;
      if (guess === null) {
        verdict = 'none';
        text = `${label}: no guess; the core gets ${fmt(truth[j])}.`;
      } else {
        verdict = judge(guess, truth[j]);
        const word = { right: 'Right', close: `Close (within \u00b1${CLOSE_WITHIN})`, wrong: 'Wrong' }[verdict];
        text = `${label}: ${word}: you said ${fmtComponent(guess)}, the core gets ${fmt(truth[j])}.`;
      }
      htmlElement('li', { class: `by-hand-verdict by-hand-verdict-${verdict}` }, text, feedback);
    });
    onChecked(index + 1);
  }

  return {
    /** Shows step `step` (1-based): its tab, its panel and its row of the table. */
    render(step) {
      previous.disabled = step === 1;
      next.disabled = step === STEPS.length;
      stepCount.textContent = `Step ${step} of ${STEPS.length}`;
      tabs.forEach((tab, i) => {
        const selected = i + 1 === step;
        tab.setAttribute('aria-selected', String(selected));
        tab.setAttribute('tabindex', selected ? '0' : '-1');
        stepPanels[i].panel.hidden = !selected;
      });
      tableRows.forEach(({ tr }, i) => tr.classList.toggle('by-hand-current', i + 1 === step));
    },

    /** Writes every step's working and the table; a step covered(s) shows "?". */
    renderWorking({ q, keys, values, raw, scaled, weights, output }, covered) {
      const shown = (s, text) => (covered(s) ? '?' : text);
      const lineSets = [
        keys.map((k, j) => `q\u00b7k${j + 1} = ${fmtVector(q, fmtComponent)}\u00b7${fmtVector(k, fmtComponent)} = ${shown(1, fmt(raw[j]))}`),
        keys.map((_, j) => `${shown(1, fmt(raw[j]))} / \u221a2 = ${shown(2, fmt(scaled[j]))}`),
        [`softmax(${covered(2) ? '?' : fmtVector(scaled)}) = ${covered(3) ? '?' : fmtVector(weights)}`],
        [`${values.map((v, j) => `${shown(3, fmt(weights[j]))}\u00b7${fmtVector(v, fmtComponent)}`).join(' + ')} = ${covered(4) ? '?' : fmtVector(output)}`],
      ];
      stepPanels.forEach(({ working }, i) => {
        working.replaceChildren();
        for (const text of lineSets[i]) htmlElement('li', {}, text, working);
      });
      const series = [raw, scaled, weights];
      tableRows.forEach(({ cells }, i) => {
        if (i === 3) cells[0].textContent = covered(4) ? '?' : fmtVector(output);
        else cells.forEach((cell, j) => { cell.textContent = shown(i + 1, fmt(series[i][j])); });
      });
    },

    /** Forgets every step's feedback (the vectors changed, so it no longer applies). */
    clearFeedback() {
      for (const panel of stepPanels) panel.feedback.replaceChildren();
    },
  };
}
