// The <attention-figure> element's attributes and its figure's settings, kept in step both ways
// (element.js). An attribute the host page sets goes into the store; a setting the learner
// changes comes back as an attribute and an `attention-figure:change` event. The element never
// removes or rewrites what the author wrote on its own: only what the learner changed is
// written, so a value the author spelled differently ("1.0", "yes") or wrongly ("abc") stays
// as written, and a wrong one keeps its note until the attribute is fixed.

import { PRESENTATION_KEYS } from '../lib/state/presentation.js';
import { CONTROL } from '../lib/state/store.js';
import { figureKeys, figureSettings } from '../lib/share/links.js';

export const ASKED_BY = 'This element';
const UNKNOWN = '(unknown)'; // the key of the note about attributes the figure does not read

// Attributes every HTML element may carry: never read as settings of the figure.
const GLOBAL_ATTRIBUTE = /^(name|figure|id|class|style|title|lang|dir|hidden|inert|slot|part|tabindex|role|is|autofocus|nonce|popover|translate|draggable|spellcheck|contenteditable|enterkeyhint|inputmode|exportparts|data-.*|aria-.*|on.*)$/;
export const isSettingAttribute = (name) => !GLOBAL_ATTRIBUTE.test(name) && !PRESENTATION_KEYS.includes(name);

/**
 * The attributes (or settings) a note is about, read from the words the store, readPresentation
 * and mountFigure use, so that the note goes once one of them is changed; null for none. A note
 * that settings do not fit together is about every setting it names.
 */
export function noteKey(message) {
  if (/ do not fit together: /.test(message)) return [...new Set([...message.matchAll(/([\w.-]+) = /g)].map((m) => m[1]))];
  const asked = /asked for ([\w.-]+) = /.exec(message)?.[1];
  if (asked) return [asked];
  if (/ names (a setting|settings) this figure does not have/.test(message)) return [UNKNOWN];
  return / is read as kind=/.test(message) ? ['kind'] : null;
}

/** The roles figure's old role="cross" (before it was named kind), or null. */
export function oldRole(element, name) {
  const role = element.getAttribute('role');
  return name === 'roles' && !element.hasAttribute('kind') && /^(encoder|decoder|cross)$/.test(role ?? '') ? role : null;
}

/** [name, value] of the attributes that are settings (the old role="…" of roles as kind). */
export function settingAttributes(element, name, note) {
  const pairs = [...element.attributes].filter((a) => isSettingAttribute(a.name)).map((a) => [a.name, a.value]);
  const role = oldRole(element, name);
  if (role) {
    note(`role="${role}" is read as kind="${role}", but role is an ARIA attribute of the host page: write kind="${role}" instead.`);
    pairs.push(['kind', role]);
  }
  return pairs;
}

/** The figure's keys that are attributes, by attribute name: Map(attribute → store key). */
function attributeKeys(state, name) {
  return new Map(figureKeys(state, name).map(({ key, short }) => [short, key]));
}

/** The attributes the figure does not read, in one note, shown again only when that list changes. */
function noteUnknown(element, mounted, known, note) {
  const unknown = [...element.attributes].map((a) => a.name).filter((a) => isSettingAttribute(a) && !known.has(a));
  const listed = unknown.join(', ');
  if (listed === mounted.unknown) return;
  mounted.unknown = listed;
  note.clear(UNKNOWN);
  if (!unknown.length) return;
  const what = unknown.length === 1 ? 'a setting this figure does not have' : 'settings this figure does not have';
  note(`${ASKED_BY} names ${what} (${listed}); ignored.`);
}

/**
 * Once the figure has mounted: the attributes set while the core was starting go in (part of
 * the load: no event), then what the store holds is kept, so that later changes are told from
 * it. mountFigure has already noted the unknown attributes it was started with.
 */
export function settle(element, mounted, note) {
  const { name, state } = mounted;
  mounted.unknown = state.unknownParams().filter((param) => param.startsWith(`${name}.`))
    .map((param) => param.slice(name.length + 1)).join(', ');
  syncSettings(element, mounted, note);
  for (const [attribute, key] of attributeKeys(state, name)) mounted.seen.set(attribute, state.textOf(key));
}

/**
 * The attributes into the figure: each one changed since it was last handed over is set (the
 * store notes a bad value), its old note going first; attributes the figure does not read are
 * noted. A host's change: the store's write comes back to reflectChange with ASKED_BY.
 */
export function syncSettings(element, mounted, note) {
  if (!mounted?.figure) return; // its keys are defined once the figure has mounted
  const { name, state, applied } = mounted;
  const known = attributeKeys(state, name);
  const raw = (attribute) => element.getAttribute(attribute) ?? (attribute === 'kind' ? oldRole(element, name) : null);
  const entries = new Map();
  const related = new Set(); // the other settings named by a note that went with a change
  for (const [attribute, key] of known) {
    if (raw(attribute) === (applied.get(attribute) ?? null)) continue;
    applied.set(attribute, raw(attribute));
    note.clear(attribute).forEach((other) => related.add(other));
    const wanted = raw(attribute) ?? state.defaultOf(key);
    if (String(wanted) !== String(state.get(key))) entries.set(key, wanted);
  }
  // A note that settings did not fit went with the change of one of them: the others are asked
  // for again as written, so that the figure's rule sees them all and notes what still does not fit.
  for (const attribute of related) {
    const key = known.get(attribute);
    const wanted = key ? raw(attribute) ?? state.defaultOf(key) : null;
    if (key && !entries.has(key) && String(wanted) !== String(state.get(key))) entries.set(key, wanted);
  }
  if (entries.size) state.setMany([...entries], { origin: ASKED_BY });
  noteUnknown(element, mounted, known, note);
}

/**
 * After the store wrote a change (`change` as the store's writeSearch gets it): writes what the
 * learner changed into the attributes (and clears their notes: the value is a valid one now).
 * Returns the change event's detail, { name, settings, source: 'learner' | 'host' }, or null
 * when nothing is to be announced: the fixes the store makes on load, and anything before the
 * figure has mounted, leave the attributes as the author wrote them and fire nothing.
 */
export function reflectChange(element, mounted, { origin, initial }, note) {
  if (initial || !mounted.done) return null;
  const { name, state, applied, seen } = mounted;
  const learner = origin === CONTROL;
  let changed = false;
  for (const [attribute, key] of attributeKeys(state, name)) {
    const text = state.textOf(key);
    if (seen.get(attribute) === text) continue;
    seen.set(attribute, text);
    changed = true;
    if (!learner) continue; // the host's own attribute stays as it wrote it
    applied.set(attribute, text); // so that the attribute written now is not handed back
    element.setAttribute(attribute, text);
    note.clear(attribute);
  }
  return changed ? { name, settings: figureSettings(state, name), source: learner ? 'learner' : 'host' } : null;
}
