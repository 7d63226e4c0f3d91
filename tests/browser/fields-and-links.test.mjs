// The page's edge where readers type and links arrive:
//   - settings that are each valid but do not fit together (the cost figure's h must divide
//     d_model, every count must stay within 2^53; the heads figure's picked head must be one of
//     its 2^k) are moved to the nearest that fits, with a notice, on the page, in the iframe
//     embed and in the element, and a sweep over every figure's settings in pairs finds no
//     readout left at "—", NaN or Infinity, and no change without a notice;
//   - a key repeated in a link reads its first value everywhere, with a notice that names the
//     key as that link spells it;
//   - typed numbers follow one rule (a decimal point or comma, no thousands separators): the
//     by-hand components are read when committed, never rewritten while typed, and a clamp or an
//     unreadable text is said beside the field; the cost counts refuse a comma with a message.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness.mjs';
import { elementsReady, openHost } from './host-page.mjs';
import { figureNames, noticesOf, schemasOf } from './toolbar-helpers.mjs';

const session = useBrowser();

/** Visible readouts of a figure (or any root) that show no real value: "—", empty, NaN, Infinity. */
function badReadouts(root) {
  return root.evaluate((node) => {
    const scope = node.shadowRoot ?? node;
    return [...scope.querySelectorAll('output')]
      .filter((output) => output.getClientRects().length)
      .map((output) => output.textContent.trim())
      .filter((text) => text === '' || text === '\u2014' || /NaN|Infinity/.test(text));
  });
}

// One page load with a link whose settings do not fit together, shared by the tests below:
// its figures and its catalogue of settings are read once.
let linked = null;
const LINK = '?cost.h=76&heads.k=0&heads.head=7&temperature.tau=2&temperature.tau=3';
async function linkedPage() {
  linked ??= session.openPage({ search: LINK, keep: true });
  return linked;
}

test('a link whose settings do not fit together is resolved with a notice, on the page and in the iframe embed', async () => {
  const { page, problems } = await linkedPage();
  const values = await page.evaluate(() => ['cost.h', 'cost.d', 'heads.head', 'temperature.tau'].map((key) => window.attentionLab.value(key)));
  assert.deepEqual(values, [64, 768, 0, 2], 'h = 76 moves to 64, the divisor of 768 nearest to it; head 7 to the only head; tau reads its first value');
  const notices = await noticesOf(page);
  assert.ok(notices.some((n) => /cost\.h = 76 does not divide cost\.d = 768.*using cost\.h = 64/.test(n)), notices.join('\n'));
  assert.ok(notices.some((n) => /heads\.head = 7 is past the last head at heads\.k = 0.*using heads\.head = 0/.test(n)), notices.join('\n'));
  assert.ok(notices.some((n) => /gives temperature\.tau 2 times \(2, 3\); using the first, 2/.test(n)), notices.join('\n'));
  assert.deepEqual(await badReadouts(page.locator('#figure-cost')), [], 'every cost readout has a value');
  assert.ok(await page.locator('#figure-cost .plot-line, #figure-cost path').count() > 0, 'the plot is drawn');
  assert.deepEqual(problems, []);

  // The iframe embed: the same rules, its notices in the embed's own keys (h, not cost.h).
  const embed = await page.context().newPage();
  for (const [search, expected] of [
    ['?figure=cost&h=7', /h = 7 does not divide d = 768.*using h = 6\b/],
    ['?figure=cost&d=7', /h = 12 does not divide d = 7.*using h = 7\b/],
    ['?figure=temperature&tau=3&tau=0.5', /gives tau 2 times \(3, 0\.5\); using the first, 3\./],
  ]) {
    await embed.goto(new URL(`embed.html${search}`, session.url).href);
    await embed.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
    const said = await noticesOf(embed);
    assert.ok(said.some((n) => expected.test(n)), `${search}: ${said.join(' | ')}`);
    assert.ok(said.every((n) => !/\b(cost|temperature)\./.test(n)), `${search}: notices name the embed's keys: ${said.join(' | ')}`);
    assert.deepEqual(await badReadouts(embed.locator('#embed-root')), [], `${search}: every readout has a value`);
  }
  const tau = await embed.getByLabel('temperature τ').getAttribute('aria-valuetext');
  assert.equal(tau, '3', 'the embed reads the first of a repeated key, as the page does');
  await embed.close();
});

// Values at the edges of each setting's range: both bounds and an odd value between (7 where
// the range holds it, a prime that divides no power of two), every value of a short enum.
function edgeValues(schema) {
  if (schema.type === 'enum') return [...new Set([schema.values[0], schema.values.at(-1)])];
  const { min, max } = schema;
  let odd;
  if (schema.type === 'integer') odd = min < 7 && 7 < max ? 7 : Math.floor((min + max) / 2);
  else odd = Number((min + (max - min) / 3).toPrecision(3));
  return [...new Set([min, max, odd])];
}

test('every figure\u2019s settings, in pairs at their edges: every readout a real value, and a notice for every value moved', async () => {
  const { page } = await linkedPage();
  const catalogue = [];
  for (const name of await figureNames(page)) catalogue.push({ name, schemas: await schemasOf(page, name) });

  const host = await openHost(session, '<script src="attention-figure.js"></script><main id="place"></main>');
  const started = Date.now();
  let pairs = 0;
  let combinations = 0;
  let moved = 0;
  const timings = [];
  for (const { name, schemas } of catalogue) {
    const keys = Object.keys(schemas);
    if (keys.length < 1) continue;
    const short = (key) => key.slice(name.length + 1);
    const edges = Object.fromEntries(keys.map((key) => [short(key), edgeValues(schemas[key]).map(String)]));
    const tried = [];
    for (let i = 0; i < keys.length; i += 1) {
      for (let j = i + 1; j < keys.length; j += 1) {
        pairs += 1;
        // Two decimal settings (by-hand's fourteen components) meet at their bounds only.
        const bothDecimal = schemas[keys[i]].type === 'number' && schemas[keys[j]].type === 'number';
        const [first, second] = [keys[i], keys[j]].map((key) => edges[short(key)].slice(0, bothDecimal ? 2 : undefined));
        for (const a of first) for (const b of second) tried.push([[short(keys[i]), a], [short(keys[j]), b]]);
      }
    }
    if (keys.length === 1) tried.push(...edges[short(keys[0])].map((v) => [[short(keys[0]), v]]));
    combinations += tried.length;

    const figureStart = Date.now();
    await host.page.evaluate((figure) => {
      const element = document.createElement('attention-figure');
      element.setAttribute('name', figure);
      document.getElementById('place').replaceChildren(element);
    }, name);
    await elementsReady(host.page);
    // In the page, for speed: set each combination live, read the settings right after the
    // element hands them to the store (before any figure's own later change), let the figure
    // draw, then read its readouts and notices; then back to the defaults.
    const failures = await host.page.evaluate(async (list) => {
      const element = document.querySelector('attention-figure');
      const root = element.shadowRoot;
      // A task turn without setTimeout's 4 ms clamp: the figure's synchronous drawing is done.
      const channel = new MessageChannel();
      const tick = () => new Promise((resolve) => { channel.port1.onmessage = resolve; channel.port2.postMessage(0); });
      const out = [];
      let count = 0;
      let last = [];
      for (const combination of list) {
        // The previous pair back to its defaults and this pair set: one change for the element.
        for (const [attribute] of last) element.removeAttribute(attribute);
        for (const [attribute, value] of combination) element.setAttribute(attribute, value);
        last = combination;
        await Promise.resolve(); // the element's attribute observer runs
        const settings = element.settings;
        const changed = combination.filter(([attribute, value]) => String(settings[attribute]) !== value);
        await tick();
        // The notes shown now (each stays while the attribute it is about stays as it is).
        const notices = [...root.querySelectorAll('.notices li')].map((li) => li.textContent);
        const bad = [...root.querySelectorAll('output')].filter((o) => o.getClientRects().length)
          .map((o) => o.textContent.trim()).filter((t) => t === '' || t === '\u2014' || /NaN|Infinity/.test(t));
        const errors = [...root.querySelectorAll('[role="alert"]:not([hidden])')].map((e) => e.textContent).filter(Boolean);
        if (changed.length) count += 1;
        const unnoted = changed.filter(([attribute]) => !notices.some((notice) => notice.includes(`${attribute} = `)));
        if (unnoted.length || bad.length || errors.length) {
          out.push({ combination, changed, notices, bad, errors });
        }
      }
      for (const [attribute] of last) element.removeAttribute(attribute);
      await Promise.resolve();
      await tick();
      return { out, count };
    }, tried);
    moved += failures.count;
    assert.deepEqual(failures.out.slice(0, 3), [], `${name}: ${failures.out.length} of ${tried.length} combinations failed`);
    assert.deepEqual(await badReadouts(host.page.locator('attention-figure')), [], `${name}: back at its defaults`);

    // The same rules when the element starts with its settings (the path a link takes): every
    // setting at its lowest, at its highest, at its odd value. (learn.steps is left out: a link's
    // step count trains that far before it pauses, which learn.test.mjs checks.)
    for (const pick of [0, 1, 2]) {
      const attributes = keys.filter((key) => key !== 'learn.steps')
        .map((key) => [short(key), edges[short(key)][Math.min(pick, edges[short(key)].length - 1)]]);
      await host.page.evaluate(([figure, pairs]) => {
        const element = document.createElement('attention-figure');
        for (const [attribute, value] of [['name', figure], ...pairs]) element.setAttribute(attribute, value);
        document.getElementById('place').replaceChildren(element);
      }, [name, attributes]);
      await elementsReady(host.page);
      const element = host.page.locator('attention-figure');
      const { settings, notices } = await element.evaluate((e) => ({
        settings: e.settings, notices: [...e.shadowRoot.querySelectorAll('.notices li')].map((li) => li.textContent),
      }));
      const changed = attributes.filter(([attribute, value]) => String(settings[attribute]) !== value);
      const where = `${name} starting with ${attributes.map((a) => a.join('=')).join(' ')}`;
      if (changed.length) {
        moved += 1;
        assert.ok(notices.length > 0, `${where}: ${changed.map((a) => a[0]).join(', ')} moved without a notice`);
      }
      assert.deepEqual(await badReadouts(element), [], where);
      combinations += 1;
    }
    timings.push(`${name} ${Date.now() - figureStart} ms`);
  }
  // The sweep must have met the rules (at least h against d_model, the head against k).
  assert.ok(moved >= 10, `${moved} combinations were moved to fit`);
  console.log(`# sweep: ${pairs} setting pairs, ${combinations} combinations, ${moved} moved with a notice, ${Date.now() - started} ms (${timings.join(', ')})`);
  assert.deepEqual(host.problems, []);
  await host.context.close();
});

test('<attention-figure> with settings that do not fit together starts resolved, and its notice speaks of the element', async () => {
  const host = await openHost(session, '<script src="attention-figure.js"></script>'
    + '<attention-figure name="cost" d="7"></attention-figure><attention-figure name="heads" k="1" head="5"></attention-figure>');
  await elementsReady(host.page);
  const [cost, heads] = await host.page.locator('attention-figure').all();
  const said = async (element) => element.evaluate((e) => [...e.shadowRoot.querySelectorAll('.notices li')].map((li) => li.textContent).join(' | '));
  assert.match(await said(cost), /^This element asked for settings that do not fit together: h = 12 does not divide d = 7.*using h = 7/);
  assert.equal((await cost.evaluate((e) => e.settings)).h, 7);
  assert.deepEqual(await badReadouts(cost), []);
  assert.match(await said(heads), /head = 5 is past the last head at k = 1.*using head = 1/);
  assert.deepEqual(host.problems, []);
  await host.context.close();
});

// What readers type into a by-hand component, and what it must become once committed:
// a value (the store's), or the same value kept with a message, and aria-invalid for text it cannot read.
const TYPED = [
  ['1,5', { value: 1.5 }], ['1.5', { value: 1.5 }], ['\u22122', { value: -2 }], ['-.5', { value: -0.5 }], ['0,25', { value: 0.25 }],
  ['1e-3', { value: 0.001 }], ['40', { value: 4, said: /4 is the largest a component may be: q x = 40 was set to 4/ }],
  ['-40', { value: -4, said: /−4 is the smallest/ }], ['1e400', { unreadable: true }], ['abc', { unreadable: true }],
  ['NaN', { unreadable: true }], ['Infinity', { unreadable: true }], ['0x10', { unreadable: true }], ['½', { unreadable: true }],
  ['<b>1</b>', { unreadable: true }], ['1,000,5', { unreadable: true, said: /thousands separators/ }],
  ['1 000', { unreadable: true, said: /thousands separators/ }], ['', { said: /left empty/ }], ['x'.repeat(200), { unreadable: true }],
];

test('by-hand components: read when committed, never rewritten while typed, with the clamp and unreadable text said beside the field', async () => {
  const { page, problems } = await linkedPage();
  const figure = page.locator('#figure-by-hand');
  const field = figure.getByLabel('q x', { exact: true });
  const message = figure.locator('.by-hand-field-message').first();
  const stored = () => page.evaluate(() => window.attentionLab.value('by-hand.qx'));
  let typedCount = 0;
  for (const [text, expected] of TYPED) {
    const before = await stored();
    // Typed key by key: nothing is read or rewritten until the field is committed.
    await field.fill('');
    await field.pressSequentially(text.slice(0, 40), { delay: 0 });
    if (text.length > 40) await field.fill(text);
    assert.equal(await field.inputValue(), text, `${JSON.stringify(text)} stays as typed`);
    assert.equal(await stored(), before, `${JSON.stringify(text)}: nothing is read before it is committed`);
    await field.press('Enter');
    typedCount += 1;
    const said = await message.innerText();
    if (expected.value !== undefined) assert.equal(await stored(), expected.value, `${JSON.stringify(text)} reads as ${expected.value}`);
    else assert.equal(await stored(), before, `${JSON.stringify(text)} keeps the value in force`);
    assert.equal(await field.getAttribute('aria-invalid'), expected.unreadable ? 'true' : null, `${JSON.stringify(text)}: aria-invalid`);
    if (expected.unreadable) {
      assert.match(said, /q x: .* (is not a number I can read|thousands separators)/, `${JSON.stringify(text)}: ${said}`);
      assert.ok(said.length < 300, 'a long text is quoted only in part');
    }
    if (expected.said) assert.match(said, expected.said, `${JSON.stringify(text)}: ${said}`);
  }
  assert.equal(await message.getAttribute('role'), 'status', 'the message is announced politely');
  assert.match(await field.getAttribute('aria-describedby'), /by-hand-field-message/);
  // Arrow keys still step a tenth, as the old number field did.
  await field.fill('1');
  await field.press('Enter');
  await field.press('ArrowUp');
  assert.equal(await stored(), 1.1);
  console.log(`# by-hand: ${typedCount} typed inputs`);
  assert.deepEqual(problems, []);
});

test('cost counts follow the same rule: a comma is a clear message (1,5 is not 15, 1,000 is not 1), digits alone are read', async () => {
  const { page, problems } = await linkedPage();
  const figure = page.locator('#figure-cost');
  const n = figure.getByRole('textbox', { name: 'queries n', exact: true });
  const alert = figure.locator('.field-error:not([hidden])');
  const cases = [
    ['1,5', /n = “1,5” is not a whole number: a comma is a decimal mark/],
    ['1,000', /n = “1,000” is not a whole number/],
    ['1 000', /n = “1 000” is written with thousands separators/],
    ['0x10', /n must be a whole number >= 1, got “0x10”/],
    ['1.5', /n must be a whole number >= 1, got 1.5/],
  ];
  for (const [text, pattern] of cases) {
    await n.fill(text);
    assert.match(await alert.innerText(), pattern, text);
    assert.equal(await n.getAttribute('aria-invalid'), 'true', text);
    assert.equal(await n.inputValue(), text, 'the text is kept');
  }
  for (const text of ['1000', '1e3']) {
    await n.fill(text);
    assert.equal(await alert.count(), 0, `${text} is read`);
    await page.waitForFunction(() => window.attentionLab.value('cost.n') === 1000);
  }
  console.log(`# cost: ${cases.length + 2} typed inputs`);
  assert.deepEqual(problems, []);
  await page.context().close();
});
