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

/**
 * @param {object} hooks
 * @param {string} [hooks.search]    the initial query string, e.g. location.search
 * @param {(search: string, change: { origin: string, initial: boolean }) => void} [hooks.writeSearch]
 *   called with the new query string and where the change came from: `origin` as set() and
 *   setMany() were given it (CONTROL for a figure's own control), `initial` true when defineAll
 *   writes back the values it had to fix on load
 * @param {(message: string) => void} [hooks.onNotice]   user-facing messages about fixed values
 * @param {string} [hooks.askedBy]  who the initial settings come from, as notices name it:
 *   'The link' (the page, the iframe embed) or 'This element' (<attention-figure>)
 * @param {(param: string) => string} [hooks.paramLabel]  how a URL name is spelled in a notice
 *   (the embeds drop the figure prefix: "tau", not "temperature.tau")
 */
const MAX_QUOTED = 40; // characters of a bad value quoted back in a notice
const MAX_REPEATS_QUOTED = 3;
// Who changes a value when a figure's own control does; its changes are shown by the figure
// itself, so values resolved to fit them are not noticed.
export const CONTROL = 'A control';

const clip = (text) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}\u2026` : text);

// An on/off setting is stored as true or false and written to links as on or off. Links made
// before it was one read too: 1/0, yes/no and true/false (any case, spaces around ignored).
const BOOLEAN_SPELLINGS = new Map([
  ['on', true], ['1', true], ['yes', true], ['true', true],
  ['off', false], ['0', false], ['no', false], ['false', false],
]);

/** A value as links and attributes spell it: on/off for an on/off setting, else the value itself. */
function paramText(schema, value) {
  return schema.type === 'boolean' ? (value ? 'on' : 'off') : String(value);
}

/**
 * A raw value (from a link, an attribute or a control) read by its schema: { value }, or the
 * value used instead with what was wrong, { value, problem: "which is not a number; using 1" }.
 */
function readValue(schema, raw) {
  const instead = (problem, value = schema.default) => ({ value, problem: `${problem}; using ${paramText(schema, value)}` });
  if (schema.type === 'boolean') {
    const value = typeof raw === 'boolean' ? raw : BOOLEAN_SPELLINGS.get(String(raw).trim().toLowerCase());
    return value === undefined ? instead('which is not on or off') : { value };
  }
  if (schema.type === 'enum') {
    return schema.values.includes(raw) ? { value: raw } : instead(`which is not one of ${schema.values.join(', ')}`);
  }
  const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(number)) {
    return instead(`which is ${Number.isNaN(number) || String(raw).trim() === '' ? 'not a number' : 'not a finite number'}`);
  }
  if (schema.type === 'integer' && !Number.isInteger(number)) return instead('which is not a whole number');
  if (number < schema.min) return instead(`below the smallest allowed value ${schema.min}`, schema.min);
  if (number > schema.max) return instead(`above the largest allowed value ${schema.max}`, schema.max);
  return { value: number };
}

/** The query string for these values: other parameters kept, defaults and old names dropped. */
function searchFor(schemas, values, initialParams) {
  const params = new URLSearchParams(initialParams);
  for (const [key, schema] of schemas) {
    if (schema.url === false) continue;
    const name = schema.param ?? key;
    const value = values.get(key);
    for (const old of schema.aliases ?? []) params.delete(old); // read, never written
    if (value === schema.default) params.delete(name);
    else params.set(name, paramText(schema, value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** True when the link spells a key's value exactly as searchFor would (absent at the default). */
function linkSpells(initialParams, key, schema, value) {
  if (schema.url === false) return true;
  const given = initialParams.getAll(schema.param ?? key);
  const stale = (schema.aliases ?? []).some((old) => initialParams.has(old));
  if (stale || given.length > 1) return false;
  return value === schema.default ? given.length === 0 : given[0] === paramText(schema, value);
}

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
    const own = [...schemas.keys()].filter((key) => key.startsWith(`${prefix}.`));
    if (!resolve || !own.length) continue;
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

export function createStore({
  search = '', writeSearch = () => {}, onNotice = () => {}, askedBy = 'The link', paramLabel = (param) => param,
} = {}) {
  const schemas = new Map();
  const values = new Map();
  const listeners = new Map();
  const constraints = new Map(); // figure prefix → resolve(values, { name }), see constrain()
  const initialParams = new URLSearchParams(search);

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

  const resolveFits = (keys, origin) => moveToFit({ schemas, values, constraints, paramLabel, onNotice, validate }, keys, origin);
  const writeUrl = (origin, initial = false) => writeSearch(searchFor(schemas, values, initialParams), { origin, initial });

  const store = {
    /**
     * Declares a key. schema: { type: 'number' | 'integer' | 'enum' | 'boolean', default, min,
     * max (numbers), values (enum), param (URL name, defaults to the key), aliases (older URL
     * names still read when the current one is absent, never written), url (false = never
     * in the URL) }. Returns the initial value, taken from the URL when it has one.
     */
    define(key, schema) {
      if (schemas.has(key)) throw new Error(`state: key "${key}" is defined twice`);
      schemas.set(key, schema);
      const name = [schema.param ?? key, ...(schema.aliases ?? [])].find((n) => initialParams.has(n));
      const fromUrl = schema.url !== false && name !== undefined;
      if (fromUrl) noticeRepeats(name);
      const value = fromUrl ? validate(key, schema, initialParams.get(name), askedBy, name) : schema.default;
      values.set(key, value);
      return value;
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
      const changed = new Map(); // listener → [value, key] of the last change it hears of
      let urlChanged = false;
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
      for (const key of [...changedKeys, ...moved.filter((k) => !changedKeys.includes(k))]) {
        if (schemas.get(key).url !== false) urlChanged = true;
        for (const listener of listeners.get(key) ?? []) {
          changed.delete(listener); // keep the order of the last change
          changed.set(listener, [values.get(key), key]);
        }
      }
      for (const [listener, [value, key]] of changed) listener(value, key);
      if (urlChanged) writeUrl(origin);
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
