// One small store of named values shared by the page's figures.
//
// Each figure declares the keys it owns with a schema; the store validates every value
// against it (numbers clamped into range, unreadable values dropped), reads initial values
// from the URL's query string and reports what it had to fix through `onNotice`, so that
// a shared link never silently shows something other than what it asked for.
// Settings that must fit together (the cost figure's h must divide d) are resolved by the
// figure's own rule, registered with constrain(): after every change the rule may move a value
// to the nearest one that fits, and a change that came from a link or an element is noticed.
// A key repeated in the link (?tau=1&tau=2) is read from its first value, with a notice.
// The store knows nothing about the DOM: URL reading and writing are injected hooks.

import { linkSpells, paramText, readValue, searchFor } from './setting-text.js';

const MAX_QUOTED = 40; // characters of a bad value quoted back in a notice
const MAX_REPEATS_QUOTED = 3;
// Who changes a value when a figure's own control does; its changes are shown by the figure
// itself, so values resolved to fit them are not noticed.
export const CONTROL = 'A control';

const clip = (text) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}\u2026` : text);

/** The store's read-only questions, for the figure toolbar (links, embed code, exports) and for tests. */
function introspection({ schemas, values, initialParams }) {
  const questions = {
    /** The defined keys that start with `${prefix}.`, in definition order (all keys without a prefix). */
    keysOf(prefix) {
      const start = prefix ? `${prefix}.` : '';
      return [...schemas.keys()].filter((key) => key.startsWith(start));
    },

    /** A copy of a key's schema. */
    schemaOf(key) {
      const schema = schemas.get(key);
      if (!schema) throw new Error(`state: unknown key "${key}"`);
      return { ...schema, values: schema.values ? [...schema.values] : undefined };
    },

    defaultOf(key) {
      return questions.schemaOf(key).default;
    },

    /** A key's value (the current one unless given) as links and attributes spell it, see paramText. */
    textOf(key, value = values.get(key)) {
      return paramText(questions.schemaOf(key), value);
    },

    /** The name a key goes by in the URL (its schema's `param`, else the key itself). */
    paramOf(key) {
      return questions.schemaOf(key).param ?? key;
    },

    /** Names in the initial URL that no defined key reads (call once every key is defined). */
    unknownParams() {
      const known = new Set([...schemas].filter(([, schema]) => schema.url !== false)
        .flatMap(([key, schema]) => [schema.param ?? key, ...(schema.aliases ?? [])]));
      return [...new Set(initialParams.keys())].filter((name) => !known.has(name));
    },
  };
  return questions;
}

/**
 * Runs the rules of the figures whose keys are in `keys` and stores what they move; returns
 * the moved keys. A move is noticed unless `origin` is a figure's own control.
 */
function moveToFit({ schemas, values, constraints, paramLabel, onNotice, validate }, keys, origin) {
  const moved = [];
  const prefixes = new Set(keys.map((key) => key.split('.')[0]));
  for (const prefix of prefixes) {
    const resolve = constraints.get(prefix);
    if (!resolve) continue; // most figures have no rule: no walk over every key on each set
    const own = [...schemas.keys()].filter((key) => key.startsWith(`${prefix}.`));
    if (!own.length) continue;
    const current = Object.fromEntries(own.map((key) => [key, values.get(key)]));
    const name = (key) => paramLabel(schemas.get(key)?.param ?? key);
    for (const { key, value, reason } of resolve(current, { name }) ?? []) {
      const schema = schemas.get(key);
      if (!schema || Object.is(value, values.get(key))) continue;
      values.set(key, validate(key, schema, value, origin));
      moved.push(key);
      if (origin !== CONTROL) {
        onNotice(`${origin} asked for settings that do not fit together: ${reason}; using ${name(key)} = ${paramText(schema, values.get(key))}, the nearest value that fits.`);
      }
    }
  }
  return moved;
}

/**
 * Reads values as they come, with a notice for each one refused or clamped: validate() any value,
 * initialValue() a key's value from the initial link, noticing a key the link gives more than once.
 */
function createReader({ onNotice, paramLabel, askedBy, initialParams }) {
  function validate(key, schema, raw, origin, param = schema.param ?? key) {
    const { value, problem } = readValue(schema, raw);
    // A link can carry anything: quote at most a short piece of it (notices are plain text).
    if (problem) onNotice(`${origin} asked for ${paramLabel(param)} = ${clip(String(raw))}, ${problem}.`);
    return value;
  }

  // A key given twice or more is read from its first value, on the page and in the embeds alike.
  function noticeRepeats(name) {
    const all = initialParams.getAll(name);
    if (all.length < 2) return;
    const shown = all.slice(0, MAX_REPEATS_QUOTED).map((value) => clip(value)).join(', ');
    const more = all.length > MAX_REPEATS_QUOTED ? ', \u2026' : '';
    onNotice(`${askedBy} gives ${paramLabel(name)} ${all.length} times (${shown}${more}); using the first, ${clip(all[0])}.`);
  }

  /** A key's value from the initial URL (its name or an older one), else its default. */
  function initialValue(key, schema) {
    const name = [schema.param ?? key, ...(schema.aliases ?? [])].find((n) => initialParams.has(n));
    if (schema.url === false || name === undefined) return schema.default;
    noticeRepeats(name);
    return validate(key, schema, initialParams.get(name), askedBy, name);
  }

  return { validate, initialValue };
}

/**
 * Runs every listener of the changed keys once, with the last changed key it listens to (in the
 * order of the last changes); returns whether a key the URL carries changed.
 */
function callListeners({ schemas, values, listeners }, keys) {
  const changed = new Map(); // listener → [value, key] of the last change it hears of
  let urlChanged = false;
  for (const key of keys) {
    if (schemas.get(key).url !== false) urlChanged = true;
    for (const listener of listeners.get(key) ?? []) {
      changed.delete(listener); // keep the order of the last change
      changed.set(listener, [values.get(key), key]);
    }
  }
  for (const [listener, [value, key]] of changed) listener(value, key);
  return urlChanged;
}

/**
 * @param {object} hooks
 * @param {string} [hooks.search]    the initial query string, e.g. location.search
 * @param {(searchNow: () => string, change: { origin: string, initial: boolean }) => void} [hooks.writeSearch]
 *   called after a change with a function that returns the query string of the values as they
 *   are when it is called (a hook that waits, as the address bar's does, spells it once for a
 *   run of key presses instead of once per press), and where the change came from: `origin` as set() and
 *   setMany() were given it (CONTROL for a figure's own control), `initial` true when defineAll
 *   writes back the values it had to fix on load
 * @param {(message: string) => void} [hooks.onNotice]   user-facing messages about fixed values
 * @param {string} [hooks.askedBy]  who the initial settings come from, as notices name it:
 *   'The link' (the page, the iframe embed) or 'This element' (<attention-figure>)
 * @param {(param: string) => string} [hooks.paramLabel]  how a URL name is spelled in a notice
 *   (the embeds drop the figure prefix: "tau", not "temperature.tau")
 */
export function createStore({
  search = '', writeSearch = () => {}, onNotice = () => {}, askedBy = 'The link', paramLabel = (param) => param,
} = {}) {
  const schemas = new Map();
  const values = new Map();
  const listeners = new Map();
  const constraints = new Map(); // figure prefix → resolve(values, { name }), see constrain()
  const initialParams = new URLSearchParams(search);
  const { validate, initialValue } = createReader({ onNotice, paramLabel, askedBy, initialParams });

  const resolveFits = (keys, origin) => moveToFit({ schemas, values, constraints, paramLabel, onNotice, validate }, keys, origin);
  const searchNow = () => searchFor(schemas, values, initialParams);
  const writeUrl = (origin, initial = false) => writeSearch(searchNow, { origin, initial });

  const store = {
    /**
     * Declares a key. schema: { type: 'number' | 'integer' | 'enum' | 'boolean' | 'text', default, min,
     * max (numbers), values (enum), param (URL name, defaults to the key), aliases (older URL
     * names still read when the current one is absent, never written), url (false = never
     * in the URL), check (text: a function returning what is wrong with a value, or null), shared
     * (true: the same schema object may be defined again, and the first definition stands) }.
     * Returns the initial value, taken from the URL when it has one.
     */
    define(key, schema) {
      // A shared key (the page's sentence) is defined by whichever figure comes first.
      if (schemas.has(key) && schema.shared && schemas.get(key) === schema) return values.get(key);
      if (schemas.has(key)) throw new Error(`state: key "${key}" is defined twice`);
      schemas.set(key, schema);
      values.set(key, initialValue(key, schema));
      return values.get(key);
    },

    /**
     * Declares every key of a figure's settings ({ key: schema }, see define), in order, then
     * resolves them with the figure's rule (see constrain), noticing what it moves.
     */
    defineAll(settings) {
      for (const [key, schema] of Object.entries(settings)) store.define(key, schema);
      resolveFits(Object.keys(settings), askedBy);
      // A value the link gave that was refused, clamped or moved to fit is shown corrected in the
      // address bar too (the notice says what happened), so that copying it gives the view.
      if (Object.keys(settings).some((key) => !linkSpells(initialParams, key, schemas.get(key), values.get(key)))) writeUrl(askedBy, true);
    },

    /**
     * Registers the rule of settings that depend on each other, for the keys `${prefix}.…`.
     * resolve(values, { name }) gets { key: value } of the prefix's keys and returns the moves
     * that make them fit, [{ key, value, reason }] (none when they fit): reason says what did
     * not fit, naming keys by name(key) (as the link spells them). It runs after defineAll and
     * after every change of one of those keys; call it before they are defined.
     */
    constrain(prefix, resolve) {
      if (typeof resolve === 'function') constraints.set(prefix, resolve);
    },

    get(key) {
      if (!schemas.has(key)) throw new Error(`state: unknown key "${key}"`);
      return values.get(key);
    },

    /**
     * Validates and stores a value; listeners run only when it actually changed. `origin`
     * names who asked in a notice about a fixed value.
     */
    set(key, raw, { origin = CONTROL } = {}) {
      store.setMany([[key, raw]], { origin });
      return values.get(key);
    },

    /**
     * Sets several keys as one change: each is validated and stored, then every listener of
     * the changed keys runs once (with the last changed key it listens to) and the URL is
     * written once. entries: [[key, value], …] or { key: value }. Returns the keys that changed.
     */
    setMany(entries, { origin = CONTROL } = {}) {
      const pairs = Array.isArray(entries) ? entries : Object.entries(entries);
      const changedKeys = [];
      for (const [key, raw] of pairs) {
        const schema = schemas.get(key);
        if (!schema) throw new Error(`state: unknown key "${key}"`);
        const value = validate(key, schema, raw, origin);
        if (Object.is(value, values.get(key))) continue;
        values.set(key, value);
        changedKeys.push(key);
      }
      // The figures' rules may move other keys so that the new values fit together.
      const moved = resolveFits(changedKeys, origin);
      const heard = [...changedKeys, ...moved.filter((k) => !changedKeys.includes(k))];
      if (callListeners({ schemas, values, listeners }, heard)) writeUrl(origin);
      return [...new Set([...changedKeys, ...moved])];
    },

    /** Calls listener(value, key) whenever one of the keys changes; returns an unsubscribe. */
    subscribe(keys, listener) {
      const list = Array.isArray(keys) ? keys : [keys];
      for (const key of list) {
        if (!listeners.has(key)) listeners.set(key, new Set());
        listeners.get(key).add(listener);
      }
      return () => list.forEach((key) => listeners.get(key).delete(listener));
    },

    ...introspection({ schemas, values, initialParams }),
  };
  return store;
}
