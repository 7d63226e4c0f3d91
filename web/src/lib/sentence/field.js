// The sentence field of "Eight tokens, one knob": the learner types a sentence, applies it with
// Enter or by leaving the field, and sees each token's features in a small table. A sentence
// the figures cannot read gets a message and changes nothing: the last valid one stays drawn.
//
//   createSentenceField(parent, { state, sentence }) → the field's <section>
//   state: the store (its "sentence" key, lib/sentence/current.js); sentence: what is drawn now

import { htmlElement, uniqueId } from '../dom/elements.js';
import { SENTENCE_KEY, isLesson } from './current.js';
import { LESSON_SENTENCE, MAX_TOKENS, MIN_TOKENS, readSentence } from './tokenize.js';

// The field's last message survives the figure being drawn again for the new sentence.
const messages = new WeakMap(); // store → { text, forSentence }

export function createSentenceField(parent, { state, sentence }) {
  const section = htmlElement('section', { class: 'sentence-field' }, null, parent);
  const id = uniqueId('sentence');
  const row = htmlElement('div', { class: 'sentence-field-row' }, null, section);
  htmlElement('label', { for: id }, 'Your own sentence', row);
  const input = htmlElement('input', {
    id, type: 'text', class: 'sentence-input', 'data-sentence-field': '',
    autocomplete: 'off', spellcheck: 'false', dir: 'auto', 'aria-describedby': `${id}-hint ${id}-message`,
  }, null, row);
  input.value = state.get(SENTENCE_KEY);
  const reset = htmlElement('button', { type: 'button', class: 'sentence-reset' }, 'Back to the lesson\u2019s sentence', row);
  reset.disabled = isLesson(state.get(SENTENCE_KEY));
  htmlElement('p', { id: `${id}-hint`, class: 'control-hint' },
    `${MIN_TOKENS} to ${MAX_TOKENS} tokens (words and punctuation each count). Press Enter, or leave the field, to apply it; every figure built on the sentence follows.`, section);
  const message = htmlElement('p', { id: `${id}-message`, class: 'sentence-message', role: 'status' }, null, section);

  const say = (text, isProblem = false) => {
    message.textContent = text;
    message.classList.toggle('sentence-message-problem', isProblem);
    messages.set(state, { text, isProblem, forSentence: state.get(SENTENCE_KEY) });
  };
  const kept = messages.get(state);
  if (kept && kept.forSentence === state.get(SENTENCE_KEY)) say(kept.text, kept.isProblem);
  else say(readSentence(state.get(SENTENCE_KEY)).notes?.join(' ') ?? '');

  const apply = () => {
    const text = input.value.trim().replace(/\s+/g, ' ');
    if (text === state.get(SENTENCE_KEY)) return;
    const read = readSentence(input.value);
    if (!read.ok) {
      say(`${read.message} The figures still show \u201c${state.get(SENTENCE_KEY)}\u201d.`, true);
      return;
    }
    say(['Reading the sentence\u2026', ...read.notes].join(' '));
    messages.set(state, { text: read.notes.join(' '), isProblem: false, forSentence: text });
    state.set(SENTENCE_KEY, text);
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    }
  });
  input.addEventListener('change', apply);
  reset.addEventListener('click', () => {
    input.value = LESSON_SENTENCE;
    messages.delete(state);
    state.set(SENTENCE_KEY, LESSON_SENTENCE);
  });

  featureTable(section, sentence);
  return section;
}

/** Each token's features, as the heads read them; "guessed" and "unknown" marked. */
function featureTable(parent, sentence) {
  const tokens = sentence.tagged ?? [];
  const wrap = htmlElement('div', { class: 'sentence-features scroll-x' }, null, parent);
  const table = htmlElement('table', { class: 'sentence-feature-table' }, null, wrap);
  htmlElement('caption', {}, sentence.lesson
    ? 'The lesson\u2019s tokens and the features the core gives them'
    : 'Your tokens and the features the tagger and WordNet gave them', table);
  const head = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  for (const title of ['#', 'token', 'features', 'source']) htmlElement('th', { scope: 'col' }, title, head);
  const body = htmlElement('tbody', {}, null, table);
  tokens.forEach((token, i) => {
    const tr = htmlElement('tr', {}, null, body);
    htmlElement('td', {}, String(i), tr);
    htmlElement('th', { scope: 'row', dir: 'auto' }, token.text, tr);
    htmlElement('td', {}, token.features.length ? token.features.join(', ') : 'none', tr);
    const source = token.unknown ? 'unknown: not an English word'
      : token.guessed ? 'guessed: the tagger does not know this word'
        : sentence.lesson ? 'the lesson' : 'tagger';
    htmlElement('td', { class: token.guessed || token.unknown ? 'sentence-guessed' : null }, source, tr);
  });
}
