// Accessibility of the whole page and of every embedded figure.
//
// 1. axe-core's automated rules (WCAG 2.x A and AA, plus axe's best practices) against the
//    page in the light and the dark colour scheme, on a desktop and a phone viewport; colour
//    contrast is among the rules, which is why both schemes are checked. Every figure's embed
//    page is checked too.
// 2. Nothing makes a phone's page wider than the screen, and a formula that is too wide for
//    its box can still be scrolled from the keyboard.
// 3. A keyboard-only reader Tabs through the whole page, forwards and back: every visible
//    control of every figure is reached, each heat map is one tab stop, focus is always
//    visible and moves in reading order, and nothing traps it.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { DESKTOP, PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const VIEWS = { desktop: DESKTOP, phone: PHONE };
const SCHEMES = ['light', 'dark'];

async function axeViolations(page) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
  });
}

// axe is injected as an inline script, which the page's CSP would refuse: bypass it here only.
const axeContext = (viewport, colorScheme) => ({ ...viewport, colorScheme, bypassCSP: true });

for (const [name, viewport] of Object.entries(VIEWS)) {
  for (const colorScheme of SCHEMES) {
    test(`no axe violations on the page: ${name}, ${colorScheme} scheme`, async () => {
      const { page, problems, context } = await session.openPage({ contextOptions: axeContext(viewport, colorScheme) });
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], `axe found:\n  ${violations.join('\n  ')}`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('no axe violations on any figure\'s embed page', async () => {
  const { page, context } = await session.openPage();
  const names = await page.locator('[data-figure]').evaluateAll((els) => els.map((e) => e.dataset.figure));
  await context.close();
  assert.ok(names.length >= 10, `found ${names.length} figures`);
  // The figures' markup is the page's, checked above in all four combinations; here each
  // embed gets one of them in turn (so each combination is covered by several figures), to
  // catch what is specific to the embed page without 4 × 11 page loads.
  const combinations = Object.entries(VIEWS).flatMap(([view, viewport]) => SCHEMES.map((scheme) => ({ view, viewport, scheme })));
  const failures = [];
  for (const [index, figure] of names.entries()) {
    const { view, viewport, scheme } = combinations[index % combinations.length];
    const embed = await session.openPage({ search: `embed.html?figure=${figure}`, contextOptions: axeContext(viewport, scheme) });
    const violations = await axeViolations(embed.page);
    if (violations.length || embed.problems.length) {
      failures.push(`${figure} (${view}, ${scheme}):\n  ${[...violations, ...embed.problems].join('\n  ')}`);
    }
    await embed.context.close();
  }
  assert.deepEqual(failures, [], failures.join('\n'));
});

test('on a phone nothing makes the page wider than the screen', async () => {
  for (const width of [375, 320]) {
    const { page, context } = await session.openPage({ contextOptions: { ...PHONE, viewport: { width, height: 667 } } });
    const { pageWidth, screenWidth, wide } = await page.evaluate(() => {
      const screen = document.documentElement.clientWidth;
      const culprits = [];
      for (const el of document.querySelectorAll('body *')) {
        const box = el.getBoundingClientRect();
        let clipped = false;
        for (let a = el.parentElement; a && !clipped; a = a.parentElement) clipped = getComputedStyle(a).overflowX !== 'visible';
        if (box.width > 0 && box.right > screen + 0.5 && !clipped) culprits.push(`${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} (right edge ${Math.round(box.right)} px)`);
      }
      return { pageWidth: document.documentElement.scrollWidth, screenWidth: innerWidth, wide: culprits.slice(0, 5) };
    });
    // A mobile browser zooms out to fit a too-wide page, so innerWidth grows with it.
    assert.equal(screenWidth, width, `at ${width} px the layout viewport grew to ${screenWidth} px: ${wide.join(', ')}`);
    assert.ok(pageWidth <= width, `at ${width} px the page is ${pageWidth} px wide: ${wide.join(', ')}`);
    await context.close();
  }
});

test('a formula too wide for a phone can be scrolled from the keyboard', async () => {
  const { page, context } = await session.openPage({ contextOptions: axeContext(PHONE, 'light') });
  // Formulas are sized to fit a phone; a reader's larger font (here: forced) can still make
  // one overflow. Then its box must be a named tab stop.
  await page.addStyleTag({ content: '.tex-display math { font-size: 2.5em !important; }' });
  await page.waitForFunction(() => document.querySelector('.tex-display[tabindex="0"]') !== null);
  const formulas = await page.locator('.tex-display').evaluateAll((boxes) => boxes.map((box) => ({
    overflows: box.scrollWidth > box.clientWidth + 1,
    tabindex: box.getAttribute('tabindex'),
    role: box.getAttribute('role'),
    name: box.getAttribute('aria-label'),
  })));
  const overflowing = formulas.filter((f) => f.overflows);
  assert.ok(overflowing.length > 0, 'the forced font makes some formula overflow');
  for (const f of overflowing) assert.deepEqual([f.tabindex, f.role, f.name], ['0', 'region', 'formula, scrolls sideways']);
  for (const f of formulas.filter((x) => !x.overflows)) assert.equal(f.tabindex, null, 'a formula that fits is not a tab stop');
  const violations = await axeViolations(page);
  assert.ok(!violations.some((v) => v.startsWith('scrollable-region-focusable')), violations.join('\n'));
  await context.close();
});

// ---- Keyboard ------------------------------------------------------------------------------

// Widgets whose members may sit out of the tab order because the widget manages focus
// itself (roving tabindex): one member is the tab stop, arrow keys move between the others.
const COMPOSITE = '[role="grid"], [role="tablist"], [role="radiogroup"], [role="toolbar"], [role="listbox"], [role="menu"], [role="menubar"], [role="tree"]';

/** Registers, in the page, every visible control a keyboard user must be able to reach. */
function listControls(composite) {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible' && !el.closest('[inert]');
  const describe = (el) => {
    const name = el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent;
    return `${el.tagName.toLowerCase()}${el.type ? `[${el.type}]` : ''} "${(name ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}" in #${el.closest('section')?.id ?? '?'}`;
  };
  const controls = [...document.querySelectorAll('input:not([type="hidden"]), select, button, summary, textarea')]
    .filter((el) => visible(el) && !el.matches(':disabled'));
  // What counts as reached: the control itself, or for a radio button or a member of a
  // roving-tabindex widget, any member of its group (only one of them is a tab stop).
  const groupOf = (el) => {
    if (el.type === 'radio' && el.name) return `radio:${el.form?.id ?? ''}:${el.name}`;
    const widget = el.closest(composite);
    return widget?.querySelector('[tabindex="-1"]') ? widget : el;
  };
  window.__a11y = { controls, groupOf, describe, grids: [...document.querySelectorAll('[role="grid"]')].filter(visible) };
  const focusable = document.querySelectorAll('a[href], area[href], input, select, textarea, button, summary, iframe, [tabindex], [contenteditable]');
  return {
    count: controls.length,
    focusable: focusable.length,
    grids: window.__a11y.grids.length,
    // A control taken out of the tab order outside any roving-tabindex widget cannot be reached.
    outOfOrder: controls.filter((el) => el.getAttribute('tabindex') === '-1' && !el.closest(composite)).map(describe),
  };
}

/** Facts about the focused element, judged in the page. */
function focusedStop() {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const a = window.__a11y;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const overlaps = (r) => r.right > box.left - 4 && r.left < box.right + 4 && r.bottom > box.top - 4 && r.top < box.bottom + 4;
  // A visible focus indicator: the element's own outline or box-shadow, or (for SVG widgets
  // that draw their own ring above the neighbouring shapes) a shown "focus" shape over it.
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && !/rgba\(.*,\s*0\)$/.test(style.outlineColor);
  const shadow = style.boxShadow !== 'none';
  const ring = [...(el.closest('svg')?.querySelectorAll('[class*="focus"]') ?? [])].some((shape) => {
    const s = getComputedStyle(shape);
    return s.visibility === 'visible' && s.display !== 'none' && Number(s.opacity) > 0 && overlaps(shape.getBoundingClientRect());
  });
  const radios = el.type === 'radio' ? [...document.querySelectorAll('input[type="radio"]')].filter((r) => r.name === el.name && r.form === el.form) : [];
  const previous = a.previous;
  a.previous = el;
  a.visited ??= new Set();
  const seen = a.visited.has(el);
  const first = a.visited.size > 0 && a.visited.values().next().value === el;
  a.visited.add(el);
  const inView = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
  return {
    description: a.describe(el),
    control: a.controls.indexOf(el),
    radioIsChecked: el.type !== 'radio' || el.checked || !radios.some((r) => r.checked),
    grid: a.grids.findIndex((g) => g.contains(el)),
    isGrid: el.getAttribute('role') === 'grid',
    focusVisible: el.matches(':focus-visible') && (outline || shadow || ring),
    inView,
    seen,
    first,
    // Forward Tab must move on in document order (no positive tabindex, no focus jumps).
    after: previous ? Boolean(previous.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : true,
  };
}

async function tabThrough(page, key, limit) {
  await page.evaluate(() => { window.__a11y.previous = null; window.__a11y.visited = new Set(); });
  const stops = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(key);
    const stop = await page.evaluate(focusedStop);
    if (stop === null) return { stops, left: true };
    if (stop.seen) {
      // Back at the walk's first stop: the browser wrapped around the whole page (headless
      // Chromium may skip the stop on its own toolbar). Back anywhere else: a trap.
      return { stops, left: stop.description === stops[0]?.description && stop.first, trappedAt: stop.description };
    }
    stops.push(stop);
  }
  return { stops, left: false, trappedAt: `(still moving after ${limit} presses)` };
}

test('the keyboard reaches every control of every figure, in order, with focus always visible', async () => {
  const { page } = await session.openPage();
  const inventory = await page.evaluate(listControls, COMPOSITE);
  assert.ok(inventory.count >= 50, `found only ${inventory.count} controls`);
  assert.ok(inventory.grids >= 10, `found only ${inventory.grids} heat maps`);
  assert.deepEqual(inventory.outOfOrder, [], 'controls taken out of the tab order outside a roving-tabindex widget');
  const cellsInTabOrder = await page.evaluate(() => window.__a11y.grids.map((g) => g.querySelectorAll('[tabindex="0"]').length));
  assert.deepEqual(cellsInTabOrder, new Array(inventory.grids).fill(1), 'cells with tabindex="0" per heat map');
  // Generous: every focusable element twice over, plus the page's own links.
  const limit = 2 * inventory.focusable + 20;

  const forward = await tabThrough(page, 'Tab', limit);
  const names = forward.stops.map((s) => s.description);
  assert.ok(forward.left, `Tab never left the page: focus came back to ${forward.trappedAt} (a focus trap)`);

  // Every visible control is reached: itself, or the member of its group that is the tab stop.
  const reached = await page.evaluate((indices) => {
    const a = window.__a11y;
    const groups = new Set(indices.map((i) => a.groupOf(a.controls[i])));
    return a.controls.filter((el, i) => !indices.includes(i) && !groups.has(a.groupOf(el))).map(a.describe);
  }, forward.stops.filter((s) => s.control >= 0).map((s) => s.control));
  assert.deepEqual(reached, [], 'controls the Tab key never reached');

  // Each heat map is exactly one tab stop (roving tabindex), and never the grid element itself.
  const perGrid = new Array(inventory.grids).fill(0);
  for (const s of forward.stops) if (s.grid >= 0) perGrid[s.grid] += 1;
  assert.deepEqual(perGrid, new Array(inventory.grids).fill(1), 'tab stops per heat map');
  assert.equal(forward.stops.filter((s) => s.isGrid).length, 0, 'a grid element is not a tab stop of its own');

  // A radio group is entered at its checked button.
  assert.deepEqual(forward.stops.filter((s) => !s.radioIsChecked).map((s) => s.description), [], 'radio stops that are not the checked one');
  // Focus is always visible, on screen, and moves forward through the document.
  assert.deepEqual(forward.stops.filter((s) => !s.focusVisible).map((s) => s.description), [], 'stops without a visible focus indicator');
  assert.deepEqual(forward.stops.filter((s) => !s.inView).map((s) => s.description), [], 'stops scrolled out of view');
  assert.deepEqual(forward.stops.filter((s) => !s.after).map((s) => s.description), [], 'stops out of reading order');

  // And back again: Shift+Tab visits the same stops in reverse and leaves at the top.
  await page.locator('footer').evaluate((footer) => {
    // Start the backward walk after the last stop: the footer (made focusable by script only).
    footer.setAttribute('tabindex', '-1');
    footer.focus();
  });
  const backward = await tabThrough(page, 'Shift+Tab', limit);
  assert.ok(backward.left, `Shift+Tab never left the page: focus came back to ${backward.trappedAt} (a focus trap)`);
  assert.deepEqual(backward.stops.map((s) => s.description), [...names].reverse(), 'Shift+Tab retraces the Tab order');
});
