// The sentence field of "Eight tokens, one knob": the learner types a sentence, applies it with
// Enter or by leaving the field, and sees each token's features in a small table. A sentence
// the figures cannot read gets a message and changes nothing: the last valid one stays drawn.
//
//   createSentenceField(parent, { state, sentence }) → the field's group
//   state: the store (its "sentence" key, lib/sentence/current.js); sentence: what is drawn now

import { htmlElement, uniqueId } from '../dom/elements.js';
import { FEATURES_KEY, READ_FEATURES, SENTENCE_KEY, changesText, isLesson, parseChanges } from './current.js';
import { LESSON_SENTENCE, MAX_TOKENS, MIN_TOKENS, readSentence } from './tokenize.js';

// The field's last message survives the figure being drawn again for the new sentence.
const messages = new WeakMap(); // store → { text, forSentence }

export function createSentenceField(parent, { state, sentence }) {
  const section = htmlElement('div', { class: 'sentence-field', role: 'group', 'aria-label': 'your own sentence' }, null, parent);
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
    state.setMany([[SENTENCE_KEY, text], [FEATURES_KEY, '']]);
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    }
  });
  input.addEventListener('change', apply);
  const load = (text) => {
    input.value = text;
    messages.delete(state);
    state.setMany([[SENTENCE_KEY, text], [FEATURES_KEY, '']]);
  };
  reset.addEventListener('click', () => load(LESSON_SENTENCE));

  featureTable(section, { state, sentence });

  // What the hand-built heads can and cannot do, and one failure that shows it.
  const limits = htmlElement('div', { class: 'sentence-limits' }, null, section);
  htmlElement('p', {}, 'These heads were built by hand, and each reads features, never meaning. The pronoun head sends a '
    + 'pronoun to whatever is marked animate; the verb head sends verbs and relation words to nouns; one head matches '
    + 'the same word, one looks one place back. They cannot tell which noun a pronoun means when that needs sense, '
    + 'they know no word the tools did not tag, and a changed feature changes what they do, right or wrong. A '
    + 'trained model learns its own features, far more of them, from data.', limits);
  const failure = htmlElement('button', { type: 'button', class: 'sentence-failure' },
    `Load a worked failure: \u201c${WORKED_FAILURE}\u201d`, limits);
  failure.addEventListener('click', () => load(WORKED_FAILURE));
  if (state.get(SENTENCE_KEY) === WORKED_FAILURE) {
    htmlElement('p', { class: 'sentence-failure-note' }, 'Here \u201cit\u201d means the ball (a hard ball), but the '
      + 'pronoun head sends \u201cit\u201d to \u201cdog\u201d: \u201cdog\u201d is the only animate noun, and animacy is all '
      + 'that head reads. Switch \u201canimate\u201d on for \u201cball\u201d and off for \u201cdog\u201d above, and the '
      + 'weight moves.', limits);
  }
  return section;
}

/** The worked failure: the pronoun head reads animacy, not sense. */
export const WORKED_FAILURE = 'the ball hit the dog because it was hard';

/**
 * Each token's features: the five the heads read as switches (kept in the link as the
 * "features" key), the rest as text; "guessed", "unknown" and "changed" marked.
 */
function featureTable(parent, { state, sentence }) {
  const tokens = sentence.tagged ?? [];
  // The title sits above the box (a caption would be cut off with the table on a phone); a wide
  // table scrolls inside its box, which takes focus so that keys can scroll it.
  const titleId = uniqueId('sentence-features');
  htmlElement('p', { id: titleId, class: 'sentence-features-title' }, sentence.lesson
    ? 'The lesson\u2019s tokens and their features: switch one and every figure follows'
    : 'Your tokens and the features the tagger and WordNet gave them: switch one and every figure follows', parent);
  const wrap = htmlElement('div', { class: 'sentence-features', role: 'region', tabindex: '0', 'aria-labelledby': titleId }, null, parent);
  const table = htmlElement('table', { class: 'sentence-feature-table', 'aria-labelledby': titleId }, null, wrap);
  const head = htmlElement('tr', {}, null, htmlElement('thead', {}, null, table));
  for (const title of ['#', 'token', ...READ_FEATURES, 'other features', 'source']) htmlElement('th', { scope: 'col' }, title, head);
  const body = htmlElement('tbody', {}, null, table);
  const toggle = (token, feature, on) => {
    const { changes = [] } = parseChanges(state.get(FEATURES_KEY));
    const kept = changes.filter((c) => !(c.token === token && c.feature === feature));
    // A switch back to the tagger's own value drops the change.
    const tagger = sentence.original?.[token]?.features ?? null;
    const isTaggers = tagger ? tagger.includes(feature) === on : false;
    state.set(FEATURES_KEY, changesText(isTaggers ? kept : [...kept, { token, on, feature }]));
  };
  tokens.forEach((token, i) => {
    const tr = htmlElement('tr', {}, null, body);
    htmlElement('td', {}, String(i), tr);
    const name = htmlElement('th', { scope: 'row', dir: 'auto' }, token.text, tr);
    for (const feature of READ_FEATURES) {
      const cell = htmlElement('td', { class: 'sentence-switch' }, null, tr);
      const box = htmlElement('input', { type: 'checkbox', 'aria-label': `${feature}: ${token.text} (${i})` }, null, cell);
      box.checked = token.features.includes(feature);
      box.addEventListener('change', () => toggle(i, feature, box.checked));
    }
    const others = token.features.filter((f) => !READ_FEATURES.includes(f));
    htmlElement('td', {}, others.length ? others.join(', ') : '\u2013', tr);
    const source = token.changed ? 'changed by you'
      : token.unknown ? 'unknown: not an English word'
        : token.guessed ? 'guessed: the tagger does not know this word'
          : sentence.lesson ? 'the lesson' : 'tagger';
    htmlElement('td', { class: token.guessed || token.unknown || token.changed ? 'sentence-guessed' : null }, source, tr);
    name.title = source;
  });
}
