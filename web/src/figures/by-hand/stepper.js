// The right half of the "by hand" figure: the four steps as tabs, each with its working and a
// predict-then-check form, and a running table of all four steps for the current query.

import { isUnreadable, markUnreadable, parseNumber, UNREADABLE } from '../../lib/controls/number-field.js';
import { scrollableWhenOverflowing } from '../../lib/dom/scroll-region.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { GRADING_RULE, direction } from '../../lib/controls/grade.js';
import { createTally, reportProgress } from '../../lib/lms/progress.js';
import {
  KEY_IDS, NAME, STEPS, fmt, fmtComponent, fmtVector, judge, truthOf,
} from './model.js';

/** One step's panel: its text, working, a note while an earlier step is covered, and the form. */
function stepPanel(parent, step, index, { tabId, panelId }) {
  const panel = htmlElement('div', { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'by-hand-step-panel' }, null, parent);
  htmlElement('p', { class: 'by-hand-step-text' }, step.text, panel);
  const working = htmlElement('ul', { class: 'by-hand-working', 'aria-label': `working of step ${index + 1}` }, null, panel);
  // Shown when this step's working needs an earlier step that is still covered.
  const waiting = htmlElement('p', { class: 'by-hand-waiting', hidden: '' }, null, panel);
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
  const showAnswer = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Show the answer', buttons);
  htmlElement('p', { class: 'by-hand-tolerance' }, GRADING_RULE, fieldset);
  const feedback = htmlElement('ul', { class: 'by-hand-feedback', 'aria-live': 'polite', 'aria-label': `feedback on step ${index + 1}` }, null, form);
  return { panel, working, waiting, feedback, form, guessInputs, showAnswer };
}

/** The running table: all four steps for the current query; returns its rows, { tr, cells }. */
function createStepsTable(parent) {
  const tableWrap = htmlElement('div', { class: 'by-hand-table-wrap' }, null, parent);
  const table = htmlElement('table', { class: 'by-hand-table' }, null, tableWrap);
  scrollableWhenOverflowing(tableWrap, 'table of the four steps, scrolls sideways');
  htmlElement('caption', {}, 'All four steps for the current query', table);
  const headRow = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  htmlElement('th', { scope: 'col' }, 'step', headRow);
  for (const id of KEY_IDS) htmlElement('th', { scope: 'col' }, `key ${id.slice(1)}`, headRow);
  const tbody = htmlElement('tbody', {}, null, table);
  return ['dot products', 'scaled scores', 'weights', 'output'].map((label, index) => {
    const tr = htmlElement('tr', {}, null, tbody);
    htmlElement('th', { scope: 'row' }, `${index + 1} ${label}`, tr);
    const cells = index === 3
      ? [htmlElement('td', { colspan: 3, class: 'by-hand-num' }, null, tr)]
      : KEY_IDS.map(() => htmlElement('td', { class: 'by-hand-num' }, null, tr));
    return { tr, cells };
  });
}

/**
 * What one guess's line of feedback says. The core's value is given only once the step is
 * `earned` (every guess right, or the answer asked for); before, a direction to try again.
 */
function verdictText(verdict, { label, guess, truth, earned }) {
  const value = `the core gets ${fmt(truth)}`;
  if (verdict === 'unreadable') return earned ? `${label}: ${UNREADABLE}; ${value}.` : `${label}: ${UNREADABLE}. Type a decimal number, such as 0.4.`;
  if (verdict === 'none') return earned ? `${label}: no guess; ${value}.` : `${label}: no guess yet.`;
  if (verdict === 'right') return `${label}: Right: you said ${fmtComponent(guess)}, ${value}.`;
  const word = verdict === 'close' ? 'Close' : 'Wrong';
  return earned
    ? `${label}: ${word}: you said ${fmtComponent(guess)}, ${value}.`
    : `${label}: ${word}: you said ${fmtComponent(guess)}, ${direction(guess, truth)}. Try again.`;
}

/**
 * Grades the guesses in `inputs` of step `index` (0-based) against `truth` into `feedback`:
 * the core's values are given only when every guess is right or `reveal` is set (the "Show
 * the answer" button); otherwise each line says right, close or wrong with a direction, and
 * the learner may try again. Returns whether the step's numbers are earned.
 */
function gradeStep(index, { inputs, feedback, truth, reveal }) {
  const guesses = inputs.map((input) => parseNumber(input.value));
  const unreadable = inputs.map((input) => isUnreadable(input.value));
  inputs.forEach((input, j) => markUnreadable(input, unreadable[j]));
  const verdicts = guesses.map((guess, j) => {
    if (unreadable[j]) return 'unreadable';
    return guess === null ? 'none' : judge(guess, truth[j]);
  });
  const earned = reveal || verdicts.every((v) => v === 'right');
  feedback.replaceChildren();
  verdicts.forEach((verdict, j) => {
    const label = STEPS[index].guesses[j].replace(/^your /, '');
    const text = verdictText(verdict, { label, guess: guesses[j], truth: truth[j], earned });
    htmlElement('li', { class: `by-hand-verdict by-hand-verdict-${verdict}` }, text, feedback);
  });
  if (!earned) {
    htmlElement('li', { class: 'by-hand-verdict by-hand-verdict-hint' },
      'Change your numbers and press Check again, or press Show the answer.', feedback);
  }
  return earned;
}

/** The Previous / Next buttons and the "Step s of 4" line, which move the store's step. */
function createStepNav(parent, { state, stepKey }) {
  const stepNav = htmlElement('div', { class: 'by-hand-step-nav' }, null, parent);
  const previous = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Previous step', stepNav);
  const stepCount = htmlElement('span', { class: 'by-hand-step-count', 'aria-live': 'polite' }, null, stepNav);
  const next = htmlElement('button', { type: 'button', class: 'by-hand-button' }, 'Next step', stepNav);
  previous.addEventListener('click', () => state.set(stepKey, state.get(stepKey) - 1));
  next.addEventListener('click', () => state.set(stepKey, state.get(stepKey) + 1));
  return { previous, next, stepCount };
}

/**
 * One step's tab in `tabList`: a click selects it, the arrow keys, Home and End move along the
 * tabs (all of `tabs`, filled in as they are built) and focus the one they reach.
 */
function createStepTab(tabList, step, index, { state, stepKey, tabs, tabId, panelId }) {
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
  return tab;
}

/** The lines of each step's working for one result; a step covered(s) shows "?". */
function workingLines({ q, keys, values, raw, scaled, weights, output }, covered) {
  const shown = (s, text) => (covered(s) ? '?' : text);
  return [
    keys.map((k, j) => `q\u00b7k${j + 1} = ${fmtVector(q, fmtComponent)}\u00b7${fmtVector(k, fmtComponent)} = ${shown(1, fmt(raw[j]))}`),
    keys.map((_, j) => `${shown(1, fmt(raw[j]))} / \u221a2 = ${shown(2, fmt(scaled[j]))}`),
    [`softmax(${covered(2) ? '[?, ?, ?]' : fmtVector(scaled)}) = ${covered(3) ? '?' : fmtVector(weights)}`],
    [`${values.map((v, j) => `${shown(3, fmt(weights[j]))}\u00b7${fmtVector(v, fmtComponent)}`).join(' + ')} = ${covered(4) ? '?' : fmtVector(output)}`],
  ];
}

/**
 * Builds the stepper into `parent`. onRevealed(step) runs when the learner has earned a step's
 * numbers (1-based): every prediction right, or "Show the answer" pressed. A check that is not
 * all right grades each guess (right, close, too high, too low) without giving the value, so
 * the learner can try again. Returns { render(step), renderWorking(result, covered), clearFeedback() }.
 */
export function createStepper(parent, { state, getResult, onRevealed }) {
  const stepKey = `${NAME}.step`;
  const right = htmlElement('div', { class: 'figure-panel by-hand-steps' }, null, parent);
  const { previous, next, stepCount } = createStepNav(right, { state, stepKey });

  const tabList = htmlElement('ol', { class: 'by-hand-tabs', role: 'tablist', 'aria-label': 'the four steps' }, null, right);
  const tabs = [];
  const stepPanels = [];
  STEPS.forEach((step, index) => {
    const tabId = uniqueId('by-hand-tab');
    const panelId = uniqueId('by-hand-panel');
    tabs.push(createStepTab(tabList, step, index, { state, stepKey, tabs, tabId, panelId }));
    const built = stepPanel(right, step, index, { tabId, panelId });
    built.form.addEventListener('submit', (event) => {
      event.preventDefault();
      check(index, built, false);
    });
    built.showAnswer.addEventListener('click', () => check(index, built, true));
    stepPanels.push(built);
  });

  const tableRows = createStepsTable(right);
  // The score an LMS records: a step counts when its predictions were right before its answer
  // was shown; the figure is done once every step is right or shown.
  const tally = createTally(STEPS.length);

  function check(index, { guessInputs, feedback }, reveal) {
    const result = getResult();
    if (!result) return;
    if (!gradeStep(index, { inputs: guessInputs, feedback, truth: truthOf(result, index), reveal })) return;
    tally.record(index, !reveal);
    reportProgress(right, tally.summary());
    onRevealed(index + 1);
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
    renderWorking(result, covered) {
      const lineSets = workingLines(result, covered);
      stepPanels.forEach(({ working, waiting }, i) => {
        working.replaceChildren();
        for (const text of lineSets[i]) htmlElement('li', {}, text, working);
        // Step i + 1 builds on step i: while that one is covered, say how to go on.
        const before = i > 0 && covered(i);
        waiting.hidden = !before;
        waiting.textContent = before
          ? `Step ${i} is still covered: work from your own step-${i} numbers, or check step ${i} (or show its answer) first.`
          : '';
      });
      const { raw, scaled, weights, output } = result;
      const series = [raw, scaled, weights];
      tableRows.forEach(({ cells }, i) => {
        if (i === 3) cells[0].textContent = covered(4) ? '?' : fmtVector(output);
        else cells.forEach((cell, j) => { cell.textContent = covered(i + 1) ? '?' : fmt(series[i][j]); });
      });
    },

    /** Forgets every step's feedback (the vectors changed, so it no longer applies). */
    clearFeedback() {
      for (const panel of stepPanels) panel.feedback.replaceChildren();
    },
  };
}
