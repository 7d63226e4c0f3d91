// How the store (store.js) reads a setting's value from a link, an attribute or a control, and
// how it spells values back into links: pure functions of a key's schema.

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

/**
 * A raw value (from a link, an attribute or a control) read by its schema: { value }, or the
 * value used instead with what was wrong, { value, problem: "which is not a number; using 1" }.
 */
export function readValue(schema, raw) {
  const instead = (problem, value = schema.default) => ({ value, problem: `${problem}; using ${paramText(schema, value)}` });
  if (schema.type === 'boolean') {
    const value = typeof raw === 'boolean' ? raw : BOOLEAN_SPELLINGS.get(String(raw).trim().toLowerCase());
    return value === undefined ? instead('which is not on or off') : { value };
  }
  // Text (the page's sentence): any string its schema's check() takes, else the default.
  if (schema.type === 'text') {
    const text = String(raw);
    const problem = schema.check?.(text) ?? null;
    return problem ? instead(problem) : { value: text };
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
export function searchFor(schemas, values, initialParams) {
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
export function linkSpells(initialParams, key, schema, value) {
  if (schema.url === false) return true;
  const given = initialParams.getAll(schema.param ?? key);
  const stale = (schema.aliases ?? []).some((old) => initialParams.has(old));
  if (stale || given.length > 1) return false;
  return value === schema.default ? given.length === 0 : given[0] === paramText(schema, value);
}
