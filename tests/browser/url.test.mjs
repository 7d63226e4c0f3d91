// Links: for every figure on the page, each of its settings read from the URL reaches the
// figure's controls, "Copy link" gives back a URL that reproduces the view, and hostile or
// broken URLs fall back to the defaults with a visible notice while nothing in them runs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser, renderAllFigures } from './harness.mjs';
import { elementsReady, eventually, openHost } from './host-page.mjs';
import {
  CLIPBOARD, controlSnapshot, copyLink, figureNames, linkText, nonDefault, noticesOf, schemasOf, valuesOf,
} from './toolbar-helpers.mjs';

const session = useBrowser();

/** Opens the page with a query; fails the test on any dialog (alert, confirm, prompt). */
async function open(search) {
  const opened = await session.openPage({ search, contextOptions: CLIPBOARD });
  const dialogs = [];
  opened.page.on('dialog', async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return { ...opened, dialogs };
}

/** Loads another URL of the page in the same tab and waits for the figures. */
async function reload(page, search) {
  await page.goto(new URL(search, session.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
  await renderAllFigures(page);
}

/** Reads until the value differs from `from` (or 5 s pass); returns the last value read. */
async function changes(read, from) {
  const until = Date.now() + 5000;
  let value = await read();
  while (JSON.stringify(value) === JSON.stringify(from) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

function query(values, hash = '') {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) params.set(key, String(value));
  return `?${params}${hash}`;
}

// Second values that also fit together (the cost figure's h must divide d_model: h = 13, one
// past the default, needs a d_model that 13 divides, and 12 too, so that taking either key out
// still changes the view).
// A token setting names one of the sentence's tokens: the lesson's has 8, though a learner's
// may have 16 (lib/format/tokens.js clampToken), so the changed query stays among the 8.
const FIT_TOGETHER = {
  cost: { 'cost.d': 936 },
  temperature: { 'temperature.query': 6 },
  'all-at-once': { 'all-at-once.query': 6 },
  map: { 'map.query': 6 },
};

// What every figure looks like by default, and its settings: read once.
let catalogue = null;
async function figuresOnPage() {
  if (catalogue) return catalogue;
  const { page, problems } = await open('');
  const names = await figureNames(page);
  catalogue = [];
  for (const name of names) {
    const schemas = await schemasOf(page, name);
    catalogue.push({ name, schemas, defaults: await controlSnapshot(page, name) });
  }
  assert.deepEqual(problems, []);
  await page.context().close();
  return catalogue;
}

test('every setting of every figure is a prefixed key with a second valid value', async () => {
  const figures = await figuresOnPage();
  assert.ok(figures.length >= 5, `figures: ${figures.map((f) => f.name).join(', ')}`);
  for (const { name, schemas } of figures) {
    for (const [key, schema] of Object.entries(schemas)) {
      assert.ok(key.startsWith(`${name}.`), `${key} is prefixed with its figure's name`);
      assert.notEqual(nonDefault(schema), schema.default, `${key} has a second valid value`);
    }
  }
});

/** The settings a link may carry for a figure: all but measured.run, which starts a timing run
 * on opening whose controls (Stop, the settings held while it runs) follow the run, not the
 * link (measured.test.mjs checks it). */
function linkKeys(schemas) {
  return Object.keys(schemas).filter((key) => key !== 'measured.run');
}

/** Every setting of a figure at a second valid value (and values that fit together). */
function changedValues({ name, schemas }) {
  const keys = linkKeys(schemas);
  return { ...Object.fromEntries(keys.map((key) => [key, nonDefault(schemas[key])])), ...FIT_TOGETHER[name] };
}

// Settings are prefixed with their figure's name and the figures never share state, so one link
// can carry every figure's settings: one page load checks them all, where one load per figure
// checked the same keys thirteen times over.
test('for every figure: each setting in the URL shows in the controls, and Copy link reproduces the view', async () => {
  const figures = (await figuresOnPage()).filter((figure) => linkKeys(figure.schemas).length);
  const everything = Object.assign({}, ...figures.map(changedValues));

  // Every setting of every figure changed at once: the store takes them all, without a notice.
  const changed = await open(query(everything));
  assert.deepEqual(await noticesOf(changed.page), [], 'valid values need no notice');
  const shown = {};
  for (const figure of figures) {
    const { name, defaults } = figure;
    const all = changedValues(figure);
    assert.deepEqual(await valuesOf(changed.page, Object.keys(all)), all, `${name}: the URL's values are in force`);
    shown[name] = await controlSnapshot(changed.page, name);
    assert.notDeepEqual(shown[name], defaults, `${name}: the controls moved away from the defaults`);
  }

  // Each setting on its own matters to the controls: put one back to its default and the
  // controls differ from the all-changed view (tested in the context of the others, since e.g.
  // the cost figure's m only shows once "m = n" is off). The load above showed that the page's
  // link reads every key; this part is the figure's own, so it runs on a course author's page
  // holding every figure as an <attention-figure> element, which mounts the same module through
  // the same store: an attribute taken away and put back per key, with no page load.
  const attributes = (figure) => Object.entries(changedValues(figure))
    .map(([key, value]) => `${key.slice(figure.name.length + 1)}="${linkText(figure.schemas[key], value)}"`).join(' ');
  const host = await openHost(session, `<script src="attention-figure.js"></script>${figures
    .map((figure) => `<attention-figure name="${figure.name}" ${attributes(figure)}></attention-figure>`).join('')}`);
  await elementsReady(host.page);
  for (const figure of figures) {
    const { name, defaults, schemas } = figure;
    const element = host.page.locator(`attention-figure[name="${name}"]`);
    const snapshot = () => controlSnapshot(host.page, name);
    const shownAlone = await snapshot();
    assert.notDeepEqual(shownAlone, defaults, `${name}: the element's controls moved away from the defaults`);
    for (const key of linkKeys(schemas)) {
      // learn.steps says how far a link trains before it pauses: it moves the step counter and
      // the maps, not a control (learn.test.mjs checks that such a link reproduces the step).
      if (key === 'learn.steps') continue;
      const attribute = key.slice(name.length + 1);
      const value = await element.getAttribute(attribute);
      await element.evaluate((el, a) => el.removeAttribute(a), attribute);
      assert.notDeepEqual(await changes(snapshot, shownAlone), shownAlone, `${key}=${value} shows in ${name}'s controls`);
      await element.evaluate((el, [a, v]) => el.setAttribute(a, v), [attribute, value]);
      // What shows comes back (a hidden map may keep labels from the view in between).
      const shownPart = async () => (await snapshot()).filter((line) => line.endsWith('|shown'));
      const expected = shownAlone.filter((line) => line.endsWith('|shown'));
      assert.deepEqual(await eventually(shownPart, expected), expected, `${name}: ${key} put back restores the view`);
    }
  }
  assert.deepEqual(host.problems, []);
  await host.context.close();

  // Copy link: only this figure's keys, all of them (none is at its default), and the hash.
  const links = {};
  for (const figure of figures) {
    const { name, schemas } = figure;
    const all = changedValues(figure);
    const link = new URL(await copyLink(changed.page, name));
    assert.equal(link.hash, `#figure-${name}`);
    assert.deepEqual(Object.fromEntries(link.searchParams), Object.fromEntries(Object.keys(all).map((k) => [k, linkText(schemas[k], all[k])])),
      `${name}: the link carries exactly the figure's settings`);
    links[name] = link;
  }

  // The copied links, joined, reproduce every figure's controls, and copying again gives the
  // same links. Opened at a figure halfway down and at the last one, the page scrolls to it once
  // it has drawn (the figures above it change height as they mount).
  const joined = new URLSearchParams(Object.values(links).flatMap((link) => [...link.searchParams]));
  for (const target of [figures[Math.floor(figures.length / 2)], figures.at(-1)]) {
    const reopened = await open(`?${joined}${links[target.name].hash}`);
    const top = await reopened.page.locator(`#figure-${target.name}`).evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top > -2 && top < 900 / 2, `${target.name}: the link scrolls to its figure once the page has drawn (top at ${top}px)`);
    for (const figure of figures) {
      const { name } = figure;
      assert.deepEqual(await controlSnapshot(reopened.page, name), shown[name], `${name}: the copied link reproduces the controls`);
      assert.deepEqual(await valuesOf(reopened.page, Object.keys(changedValues(figure))), changedValues(figure));
      if (target === figures.at(-1)) assert.equal(await copyLink(reopened.page, name), links[name].href, `${name}: copying again gives the same link`);
    }
    assert.deepEqual(reopened.problems, []);
    assert.deepEqual(reopened.dialogs, []);
    await reopened.page.context().close();
  }
  assert.deepEqual(changed.problems, []);
  assert.deepEqual(changed.dialogs, []);
  await changed.page.context().close();
});

test('Copy link leaves out default values and other figures\u2019 settings', async () => {
  const figures = await figuresOnPage();
  const [first, second] = figures.filter((f) => Object.keys(f.schemas).length);
  const firstKey = Object.keys(first.schemas)[0];
  const secondKey = Object.keys(second.schemas)[0];
  const { page, problems, dialogs } = await open(query({
    [firstKey]: nonDefault(first.schemas[firstKey]), [secondKey]: nonDefault(second.schemas[secondKey]),
  }));
  const link = new URL(await copyLink(page, first.name));
  assert.deepEqual([...link.searchParams.keys()], [firstKey]);
  const other = new URL(await copyLink(page, second.name));
  assert.deepEqual([...other.searchParams.keys()], [secondKey]);
  const untouched = figures.find((f) => f !== first && f !== second);
  const plain = new URL(await copyLink(page, untouched.name));
  assert.equal(plain.search, '', 'a figure at its defaults gets a link without a query');
  assert.equal(plain.hash, `#figure-${untouched.name}`);
  assert.deepEqual(problems, []);
  assert.deepEqual(dialogs, []);
});

// Values a shared link might carry by accident or malice. None is valid for any setting.
const GARBAGE = [
  'NaN', 'Infinity', '-Infinity', '1e400', '', '0x1g', 'null',
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(document.domain);window.__pwned=1">',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  `${'9'.repeat(400)}x`,
  'x'.repeat(3000),
];

async function expectCleanDefaults(opened, keys, schemas, label) {
  const { page, problems, dialogs } = opened;
  const values = await valuesOf(page, keys);
  for (const key of keys) assert.equal(values[key], schemas[key].default, `${label}: ${key} falls back to its default`);
  assert.deepEqual(dialogs, [], `${label}: no dialog opened`);
  assert.deepEqual(problems, [], `${label}: no errors, no blocked inline script`);
  const injected = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    foreign: document.querySelectorAll('#notices *:not(li), main script, main img[src="x"], svg[onload]').length,
  }));
  assert.deepEqual(injected, { pwned: null, foreign: 0 }, `${label}: nothing from the URL became markup`);
}

test('for every figure: garbage values fall back to the defaults with a notice, and nothing runs', async () => {
  // One link carries garbage for every setting of every figure, the kinds of garbage dealt out
  // in turn, so that each figure meets several kinds.
  const figures = (await figuresOnPage()).filter((figure) => linkKeys(figure.schemas).length);
  const keys = figures.flatMap((figure) => linkKeys(figure.schemas));
  const schemas = Object.assign({}, ...figures.map((figure) => figure.schemas));
  const opened = await open(query(Object.fromEntries(keys.map((key, k) => [key, GARBAGE[k % GARBAGE.length]]))));
  await expectCleanDefaults(opened, keys, schemas, 'every figure');
  for (const { name, defaults } of figures) {
    assert.deepEqual(await controlSnapshot(opened.page, name), defaults, `${name}: the controls show the defaults`);
  }
  const notices = await noticesOf(opened.page);
  assert.equal(notices.length, keys.length, `one notice per bad setting:\n${notices.join('\n')}`);
  for (const key of keys) assert.ok(notices.some((n) => n.includes(`${key} = `)), `a notice names ${key}`);
  for (const notice of notices) assert.ok(notice.length < 300, `a notice quotes only a short piece of the value (${notice.length} chars)`);
  assert.ok(await opened.page.getByRole('status', { name: 'Notes about the link' }).isVisible(), 'the notices are visible');
  // The address bar drops the refused values too, so that copying it gives the view.
  await opened.page.waitForFunction((list) => list.every((key) => !new URLSearchParams(location.search).has(key)), keys);
  await opened.page.context().close();
});

test('a value moved or clamped at load is corrected in the address bar as well, other parameters kept', async () => {
  const opened = await open(`${query({ 'cost.h': 76, 'cost.d': 768, 'temperature.tau': '1.50', 'heads.k': '1,5', utm_source: 'mail' })}#figure-cost`);
  // Each figure writes its own keys once it has mounted (the address bar is written 250 ms late).
  await opened.page.waitForFunction(() => {
    const params = new URLSearchParams(location.search);
    return params.get('cost.h') === '64' && params.get('temperature.tau') === '1.5' && !params.has('heads.k');
  });
  const params = new URLSearchParams(await opened.page.evaluate(() => location.search));
  assert.equal(params.get('cost.h'), '64', 'h moved to a divisor of d_model');
  assert.equal(params.has('cost.d'), false, 'd_model 768 is the default: left out, as Copy link leaves it');
  assert.equal(params.get('temperature.tau'), '1.5', 'written as the page writes numbers');
  assert.equal(params.has('heads.k'), false, 'a refused value (a link takes no decimal comma) is dropped with its notice');
  assert.equal(params.get('utm_source'), 'mail', 'a parameter of the host is left alone');
  assert.equal(await opened.page.evaluate(() => location.hash), '#figure-cost');
  assert.equal(await opened.page.evaluate(() => window.attentionLab.value('cost.h')), 64);
  assert.equal(await opened.page.evaluate(() => window.attentionLab.value('temperature.tau')), 1.5);
  assert.deepEqual(opened.problems, []);
  await opened.page.context().close();
});

test('each kind of garbage, on a number and on a choice: defaults, a notice quoting it as text, no script', async () => {
  // Each kind of garbage goes to its own number setting and its own choice, as many kinds per
  // load as the page has settings of each type.
  const entries = (await figuresOnPage()).flatMap((f) => Object.entries(f.schemas)).filter(([key]) => key !== 'measured.run');
  const numbers = entries.filter(([, s]) => s.type === 'number');
  const choices = entries.filter(([, s]) => s.type === 'enum');
  const perLoad = Math.min(numbers.length, choices.length);
  assert.ok(perLoad >= 2, `settings to spoil: ${numbers.length} numbers, ${choices.length} choices`);
  for (let first = 0; first < GARBAGE.length; first += perLoad) {
    const batch = GARBAGE.slice(first, first + perLoad);
    const spoilt = batch.flatMap((garbage, k) => [[numbers[k][0], garbage], [choices[k][0], garbage]]);
    const schemas = Object.fromEntries(batch.flatMap((_, k) => [numbers[k], choices[k]]));
    const opened = await open(query(Object.fromEntries(spoilt)));
    await expectCleanDefaults(opened, Object.keys(schemas), schemas, `garbage ${first + 1}–${first + batch.length}`);
    const notices = await noticesOf(opened.page);
    assert.equal(notices.length, spoilt.length, notices.join('\n'));
    for (const [key, garbage] of spoilt) {
      const notice = notices.find((n) => n.includes(`${key} = `));
      assert.ok(notice, `a notice names ${key}`);
      if (garbage.length < 40) assert.ok(notice.includes(`= ${garbage},`), `the notice quotes ${garbage} verbatim: ${notice}`);
    }
    await opened.page.context().close();
  }
});

test('unknown settings of a figure get one notice; other parameters are left alone', async () => {
  const figures = await figuresOnPage();
  const { name } = figures[0];
  const opened = await open(query({
    [`${name}.no-such-setting`]: '1',
    [`${name}.<script>alert(1)</script>`]: '2',
    'nofigure.x': '3',
    utm_source: 'newsletter',
    ['__proto__']: '4',
    constructor: '5',
  }));
  const notices = await noticesOf(opened.page);
  assert.equal(notices.length, 1, notices.join('\n'));
  assert.match(notices[0], new RegExp(`${name}\\.no-such-setting`));
  assert.ok(notices[0].includes(`${name}.<script>alert(1)</script>`), 'quoted as text');
  assert.doesNotMatch(notices[0], /utm_source|nofigure|constructor/);
  await expectCleanDefaults(opened, Object.keys(figures[0].schemas), figures[0].schemas, 'unknown keys');
  assert.deepEqual(await controlSnapshot(opened.page, name), figures[0].defaults);
  await opened.page.context().close();
});
