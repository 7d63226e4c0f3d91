// Figure "Check yourself": questions with a number for an answer. The learner types an
// answer and presses Check; the page runs the same computation on the WebAssembly core and
// says whether each answer is right, close or wrong (too high, too low). The core's values
// and the explanation come once every answer is right or the learner presses "Show the
// answer", so a wrong first try leaves room for a second. No answer is stored in the page:
// every expected value is computed when Check is pressed.
// (The questions answered in words, with sample answers, are plain HTML beside the figure.)

import { matrix, row } from '#attention-lab';
import { formatFixed, formatSignificant } from '../lib/format/index.js';
import { isUnreadable, markUnreadable, parseNumber, UNREADABLE } from '../lib/controls/number-field.js';
import { figureBody, htmlElement, uniqueId } from '../lib/dom/elements.js';
import { GRADING_RULE, direction, grade } from '../lib/controls/grade.js';
import { createTally, reportProgress } from '../lib/lms/progress.js';
import './check-yourself.css'; // this figure's styles, bundled into styles.css


// The worked example of the "by hand" section: d_k = 2.
const KEYS = [[1, 0], [0, 1], [1, 1]];
const VALUES = [[1, 0], [0, 1], [0.5, 0.5]];
const SHORT_SENTENCE = 10;
const LONG_SENTENCE = 20;

/** n simple two-number tokens; their content does not matter for a shape question. */
function simpleTokens(n) {
  return matrix(Array.from({ length: n }, (_, i) => [1, i / n]));
}

const fmt = (value) => formatFixed(value, 3);
const fmtVector = (values) => `[${Array.from(values, fmt).join(', ')}]`;

/** Each question: its prompt, answer fields, how the core computes the truth, and a follow-up. */
function questions(lab) {
  const oneQuery = (q) => lab.attention(matrix([q]), matrix(KEYS), matrix(VALUES));
  return [
    {
      prompt: `A sentence has ${SHORT_SENTENCE} tokens, and it attends to itself. What is the shape of the weight matrix softmax(QK\u1d40/\u221ad\u2096)?`,
      fields: ['rows', 'columns'],
      exact: true,
      truth() {
        const X = simpleTokens(SHORT_SENTENCE);
        const { weights } = lab.attention(X, X, X);
        return [weights.rows, weights.cols];
      },
      explain: (t) => `The core's weight matrix for ${SHORT_SENTENCE} tokens is ${t[0]} \u00d7 ${t[1]}: one row of weights for each query, one column for each key.`,
    },
    {
      prompt: 'Compute attention for q = [1, 0] with the keys [1, 0], [0, 1], [1, 1] and the values [1, 0], [0, 1], [0.5, 0.5] (d\u2096 = 2).',
      fields: ['weight 1', 'weight 2', 'weight 3', 'output x', 'output y'],
      truth() {
        const r = oneQuery([1, 0]);
        return [...row(r.weights, 0), ...row(r.output, 0)];
      },
      explain: (t) => `The core gets weights ${fmtVector(t.slice(0, 3))} and output ${fmtVector(t.slice(3))}. Keys 1 and 3 tie, since the query matches both equally well, and key 2 still keeps a share although it does not match at all.`,
    },
    {
      prompt: 'Now the query is q = [4, 0]: same direction, four times as long. What are the scaled scores q\u00b7k\u2c7c/\u221a2?',
      fields: ['scaled score 1', 'scaled score 2', 'scaled score 3'],
      truth: () => [...row(oneQuery([4, 0]).scaledScores, 0)],
      explain: (t) => `The core gets ${fmtVector(t)}: every dot product grew with the query's length.`,
    },
    {
      prompt: 'With q = [4, 0], how much weight is left on the key k2 = [0, 1]?',
      fields: ['weight on k2'],
      truth: () => [row(oneQuery([4, 0]).weights, 0)[1]],
      explain: (t) => `The core gets ${fmt(t[0])}: the wider gaps between scores make the softmax peakier, so the key that does not match is almost ignored.`,
    },
    {
      prompt: `The sentence grows from ${SHORT_SENTENCE} to ${LONG_SENTENCE} tokens. How many times as many query\u2013key scores does self-attention compute?`,
      fields: ['times as many'],
      exact: true,
      truth() {
        const count = (n) => {
          const X = simpleTokens(n);
          const { weights } = lab.attention(X, X, X);
          return weights.rows * weights.cols;
        };
        return [count(LONG_SENTENCE) / count(SHORT_SENTENCE)];
      },
      explain: (t) => `The core's weight matrices hold ${formatSignificant(t[0], 3)} times as many entries: doubling the length doubles both the rows and the columns, so the work grows with the square of the length.`,
    },
  ];
}

/** This figure keeps nothing in the link: its answers are typed fresh each time. */
export const SETTINGS = {};

/** It reports a score as the learner checks answers (lib/lms/progress.js). */
export const REPORTS_PROGRESS = true;

export function mount(element, { lab }) {
  const body = figureBody(element, 'figure-body check-yourself');
  htmlElement('p', { class: 'check-yourself-tolerance' },
    `${GRADING_RULE} Shapes and counts must be exact.`, body);
  const list = htmlElement('ol', { class: 'check-yourself-list' }, null, body);
  // The score an LMS records: a question counts when it is answered right before its answer
  // is shown; it is done once it is right or shown.
  const asked = questions(lab);
  const tally = createTally(asked.length);

  asked.forEach((question, index) => {
    const item = htmlElement('li', { class: 'check-yourself-item' }, null, list);
    const promptId = uniqueId('check-prompt');
    htmlElement('p', { id: promptId, class: 'check-yourself-prompt' }, question.prompt, item);
    const form = htmlElement('form', { class: 'check-yourself-form', novalidate: '', 'aria-labelledby': promptId }, null, item);
    const inputs = question.fields.map((label) => {
      const id = uniqueId('check-field');
      const line = htmlElement('p', { class: 'check-yourself-field' }, null, form);
      htmlElement('label', { for: id }, label, line);
      return htmlElement('input', { type: 'text', id, inputmode: 'decimal', autocomplete: 'off' }, null, line);
    });
    const buttonLine = htmlElement('p', { class: 'check-yourself-buttons' }, null, form);
    htmlElement('button', { type: 'submit', class: 'check-yourself-button' }, 'Check', buttonLine);
    const showAnswer = htmlElement('button', { type: 'button', class: 'check-yourself-button' }, 'Show the answer', buttonLine);
    const feedback = htmlElement('div', { class: 'check-yourself-feedback', role: 'status' }, null, item);

    const respond = (reveal) => {
      feedback.replaceChildren();
      let truth;
      try {
        truth = question.truth();
      } catch (error) {
        htmlElement('p', { class: 'figure-error' }, `The core could not compute the answer: ${error.message}`, feedback);
        return;
      }
      const guesses = inputs.map((input) => parseNumber(input.value));
      const unreadable = inputs.map((input) => isUnreadable(input.value));
      inputs.forEach((input, j) => markUnreadable(input, unreadable[j]));
      const verdicts = guesses.map((guess, j) => (unreadable[j] ? 'unreadable' : grade(guess, truth[j], { exact: question.exact })));
      const all = verdicts.every((v) => v === 'right');
      const told = all || reveal;
      let summary = 'Right.';
      if (!all) {
        const near = verdicts.every((v) => v === 'right' || v === 'close');
        summary = `${near ? 'Close.' : 'Not yet.'} ${reveal ? 'Here is the answer.' : 'Try again, or press Show the answer.'}`;
      }
      const summaryLine = htmlElement('p', { class: `check-yourself-summary check-yourself-${all ? 'right' : 'wrong'}` }, summary, feedback);
      summaryLine.dataset.verdict = all ? 'right' : 'wrong';
      const details = htmlElement('ul', { class: 'check-yourself-verdicts' }, null, feedback);
      verdicts.forEach((verdict, j) => {
        const word = { right: 'right', close: 'close', wrong: 'wrong', none: 'no answer', unreadable: UNREADABLE }[verdict];
        const shown = question.exact ? formatSignificant(truth[j], 6) : fmt(truth[j]);
        const guess = guesses[j];
        const said = guess === null ? '' : `you said ${formatSignificant(guess, 6)}`;
        let text;
        if (told) text = `${question.fields[j]}: ${word} (${said ? `${said}, ` : ''}the core gets ${shown})`;
        else if (verdict === 'right' || verdict === 'none' || verdict === 'unreadable') text = `${question.fields[j]}: ${word}${said ? ` (${said})` : ''}`;
        else text = `${question.fields[j]}: ${word} (${said}: ${direction(guess, truth[j])})`;
        htmlElement('li', { class: `check-yourself-verdict-${verdict}` }, text, details);
      });
      if (told) htmlElement('p', { class: 'check-yourself-explain' }, question.explain(truth), feedback);
      if (told) {
        tally.record(index, all);
        reportProgress(element, tally.summary());
      }
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      respond(false);
    });
    showAnswer.addEventListener('click', () => respond(true));
  });
}
