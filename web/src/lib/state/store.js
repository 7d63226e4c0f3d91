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
 * @param {(search: string) => void} [hooks.writeSearch]  called with the new query string
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
export function paramText(schema, value) {
  return schema.type === 'boolean' ? (value ? 'on' : 'off') : String(value);
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
    // A link can carry anything: quote at most a short piece of it (notices are plain text).
    const shown = `${paramLabel(param)} = ${clip(String(raw))}`;
    if (schema.type === 'boolean') {
      const value = typeof raw === 'boolean' ? raw : BOOLEAN_SPELLINGS.get(String(raw).trim().toLowerCase());
      if (value !== undefined) return value;
      onNotice(`${origin} asked for ${shown}, which is not on or off; using ${paramText(schema, schema.default)}.`);
      return schema.default;
    }
    if (schema.type === 'enum') {
      if (schema.values.includes(raw)) return raw;
      onNotice(`${origin} asked for ${shown}, which is not one of ${schema.values.join(', ')}; using ${schema.default}.`);
      return schema.default;
    }
    const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (String(raw).trim() === '' || !Number.isFinite(number)) {
      const what = Number.isNaN(number) || String(raw).trim() === '' ? 'not a number' : 'not a finite number';
      onNotice(`${origin} asked for ${shown}, which is ${what}; using ${schema.default}.`);
      return schema.default;
    }
    if (schema.type === 'integer' && !Number.isInteger(number)) {
      onNotice(`${origin} asked for ${shown}, which is not a whole number; using ${schema.default}.`);
      return schema.default;
    }
    if (number < schema.min) {
      onNotice(`${origin} asked for ${shown}, below the smallest allowed value ${schema.min}; using ${schema.min}.`);
      return schema.min;
    }
    if (number > schema.max) {
      onNotice(`${origin} asked for ${shown}, above the largest allowed value ${schema.max}; using ${schema.max}.`);
      return schema.max;
    }
    return number;
  }

  // A key given twice or more is read from its first value, on the page and in the embeds alike.
  function noticeRepeats(name) {
    const all = initialParams.getAll(name);
    if (all.length < 2) return;
    const shown = all.slice(0, MAX_REPEATS_QUOTED).map((value) => clip(value)).join(', ');
    const more = all.length > MAX_REPEATS_QUOTED ? ', \u2026' : '';
    onNotice(`${askedBy} gives ${paramLabel(name)} ${all.length} times (${shown}${more}); using the first, ${clip(all[0])}.`);
  }

  /**
   * Runs the rules of the figures whose keys are in `keys` and stores what they move; returns
   * the moved keys. A move is noticed unless `origin` is a figure's own control.
   */
  function resolveFits(keys, origin) {
    const moved = [];
    const prefixes = new Set(keys.map((key) => key.split('.')[0]));
    for (const prefix of prefixes) {
      const resolve = constraints.get(prefix);
      const own = store.keysOf(prefix);
      if (!resolve || !own.length) continue;
      const current = Object.fromEntries(own.map((key) => [key, values.get(key)]));
      const name = (key) => paramLabel(schemas.get(key)?.param ?? key);
      for (const { key, value, reason } of resolve(current, { name }) ?? []) {
        const schema = schemas.get(key);
        if (!schema || Object.is(value, values.get(key))) continue;
        values.set(key, validate(key, schema, value, origin));
        moved.push(key);
        if (origin !== CONTROL) {
          onNotice(`${origin} asked for settings that do not fit together: ${reason}; using ${name(key)} = ${values.get(key)}, the nearest value that fits.`);
        }
      }
    }
    return moved;
  }

  /** True when the link spells a key's value exactly as writeUrl would (absent at the default). */
  function linkSays(key) {
    const schema = schemas.get(key);
    if (schema.url === false) return true;
    const name = schema.param ?? key;
    const given = initialParams.getAll(name);
    const stale = (schema.aliases ?? []).some((old) => initialParams.has(old));
    if (stale || given.length > 1) return false;
    const value = values.get(key);
    return value === schema.default ? given.length === 0 : given[0] === paramText(schema, value);
  }

  function writeUrl() {
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
    writeSearch(text ? `?${text}` : '');
  }

  function notify(key, value) {
    for (const listener of listeners.get(key) ?? []) listener(value, key);
  }

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
      if (Object.keys(settings).some((key) => !linkSays(key))) writeUrl();
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
      if (urlChanged) writeUrl();
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

    // Introspection, for the figure toolbar (links, embed code, exports) and for tests.

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
      return store.schemaOf(key).default;
    },

    /** A key's value (the current one unless given) as links and attributes spell it, see paramText. */
    textOf(key, value = store.get(key)) {
      return paramText(schemas.get(key), value);
    },

    /** The name a key goes by in the URL (its schema's `param`, else the key itself). */
    paramOf(key) {
      return store.schemaOf(key).param ?? key;
    },

    /** { key: current value } for every key of a prefix (see keysOf). */
    snapshot(prefix) {
      return Object.fromEntries(store.keysOf(prefix).map((key) => [key, values.get(key)]));
    },

    /** Names in the initial URL that no defined key reads (call once every key is defined). */
    unknownParams() {
      const known = new Set([...schemas].filter(([, schema]) => schema.url !== false)
        .flatMap(([key, schema]) => [schema.param ?? key, ...(schema.aliases ?? [])]));
      return [...new Set(initialParams.keys())].filter((name) => !known.has(name));
    },
  };
  return store;
}
