// axe-core's automated accessibility rules (WCAG 2.x A and AA) against the page, in the
// light and the dark colour scheme, on a desktop and a phone viewport. Colour contrast is
// among the rules, which is why both schemes are checked.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { DESKTOP, PHONE, useBrowser } from './harness.mjs';

const session = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeViolations(page) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
  });
}

for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`no axe violations: ${name}, ${colorScheme} scheme`, async () => {
      // axe is injected as an inline script, which the page's CSP would refuse: bypass it here only.
      const { page, problems } = await session.openPage({ contextOptions: { ...viewport, colorScheme, bypassCSP: true } });
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], `axe found:\n  ${violations.join('\n  ')}`);
      assert.deepEqual(problems, []);
    });
  }
}

test('the keyboard reaches every control, and the heat map is one tab stop', async () => {
  const { page } = await session.openPage();
  const visited = [];
  const gridStops = new Map(); // each heat map (grid) → how many tab stops it took
  // Tab through the page once, until focus leaves it (returns to the body). The bound only
  // guards against a focus trap: the page has a few hundred stops at most.
  for (let i = 0; i < 600; i += 1) {
    await page.keyboard.press('Tab');
    const { stop, grid } = await page.evaluate(() => {
      const el = document.activeElement;
      const owner = el.closest('[role="grid"]');
      return {
        stop: `${el.tagName.toLowerCase()}:${el.getAttribute('role') ?? el.getAttribute('type') ?? ''}`,
        grid: owner ? `${owner.closest('[data-figure]')?.dataset.figure}/${owner.getAttribute('aria-label')}` : null,
      };
    });
    if (stop === 'body:') break;
    visited.push(stop);
    if (grid) gridStops.set(grid, (gridStops.get(grid) ?? 0) + 1);
  }
  assert.ok(visited.length < 600, 'focus leaves the page at the end (no trap)');
  assert.ok(visited.includes('select:'), `visited ${visited.join(', ')}`);
  assert.ok(visited.includes('input:range'), `visited ${visited.join(', ')}`);
  assert.ok(gridStops.size >= 1, `visited ${visited.join(', ')}`);
  for (const [grid, stops] of gridStops) assert.equal(stops, 1, `the heat map ${grid} is one tab stop`);
  assert.ok(!visited.includes('svg:grid'), 'the grid itself is not a separate tab stop');
});
