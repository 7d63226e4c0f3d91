// The learner's sentence: split into tokens (words and punctuation) and checked before anything
// is tagged or computed. No DOM; the page's field, the link reader and the tagger all use it.
//
//   readSentence(text) → { ok: true, tokens: [{ text, kind }], notes: [...] }
//                      | { ok: false, message }
//   kind: 'word' (Latin letters, digits, apostrophes and hyphens inside), 'punctuation',
//         'other' (another script, emoji, symbols: shown, never tagged)
//   matchKey(token) → the token's text in lower case: tokens are matched case-blind

export const MIN_TOKENS = 2;
export const MAX_TOKENS = 16; // the core's identity codes and places: kSentenceMaxTokens
// A sentence of 16 tokens never needs more: a longer text is refused before it is split.
export const MAX_CHARACTERS = 400;

/** The lesson's own sentence, as the page shows it. */
export const LESSON_SENTENCE = 'the cat sat on the mat because it';

// A word: Latin letters (with their accents), digits, and apostrophes or hyphens between them.
const WORD = /^[\p{Script=Latin}\p{N}\p{M}]+(?:['\u2019\-][\p{Script=Latin}\p{N}\p{M}]+)*$/u;
// Punctuation and symbols (<, +, $), but not emoji.
const PUNCTUATION = /^(?:(?!\p{Extended_Pictographic})[\p{P}\p{S}])+$/u;
// A run of one script's letters, a number, or any other single visible character (an emoji
// with its modifiers stays one token).
const PIECES = /[\p{L}\p{N}\p{M}]+(?:['\u2019\-][\p{L}\p{N}\p{M}]+)*|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic})*|\S/gu;
const RIGHT_TO_LEFT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const MARKUP = /<\/?[a-z!][^>]*>|&[a-z#0-9]+;|javascript:/i;

export const matchKey = (token) => token.text.toLowerCase();

/** The kind of one piece of text, as readSentence gives it. */
export function tokenKind(text) {
  if (WORD.test(text)) return 'word';
  if (PUNCTUATION.test(text)) return 'punctuation';
  return 'other';
}

/** Splits and checks the learner's text. Never throws; a refusal says why. */
export function readSentence(text) {
  if (typeof text !== 'string') return { ok: false, message: 'Type a sentence: words and punctuation.' };
  if (text.length > MAX_CHARACTERS) {
    return {
      ok: false,
      message: `That text has ${text.length.toLocaleString('en')} characters; a sentence here has at most ${MAX_TOKENS} tokens, so type at most ${MAX_CHARACTERS} characters.`,
    };
  }
  const pieces = text.normalize('NFC').match(PIECES) ?? [];
  if (pieces.length === 0) return { ok: false, message: `The field is empty: type a sentence of ${MIN_TOKENS} to ${MAX_TOKENS} tokens.` };
  if (pieces.length > MAX_TOKENS) {
    return { ok: false, message: `That sentence has ${pieces.length} tokens; the toy model reads at most ${MAX_TOKENS}. Shorten it by ${pieces.length - MAX_TOKENS}.` };
  }
  const tokens = pieces.map((piece) => ({ text: piece, kind: tokenKind(piece) }));
  if (tokens.every((t) => t.kind === 'punctuation')) {
    return { ok: false, message: 'That is only punctuation: type some words as well.' };
  }
  if (tokens.length < MIN_TOKENS) {
    return { ok: false, message: `One token is not enough: attention compares tokens, so type at least ${MIN_TOKENS}.` };
  }
  const notes = [];
  const others = tokens.filter((t) => t.kind === 'other');
  if (others.length > 0) {
    const rtl = others.some((t) => RIGHT_TO_LEFT.test(t.text));
    notes.push(`${others.length === 1 ? 'One token is' : `${others.length} tokens are`} not English words${rtl ? ' (right-to-left text included)' : ''}: ` +
      'they are shown, but the tools know no features for them, so the heads can only tell them apart by identity and place.');
  }
  if (MARKUP.test(text)) notes.push('Markup in the sentence is shown as plain text, never run.');
  return { ok: true, tokens, notes };
}
