// The page stands on one WebAssembly module for as long as it is open: 10,000 invalid
// keystrokes in the cost figure (each one a failing lab.cost call that shows its message) and
// 10,000 valid moves of the sliders across the figures leave the module's heap, its stack
// pointer and its live Embind handles exactly where they were.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness.mjs';

const session = useBrowser();
const EVENTS = 10_000;

const memoryStats = (page) => page.evaluate(() => window.attentionLab.memoryStats());

test('10,000 invalid keystrokes in the cost figure leave heap, stack and handles flat', async () => {
  const { page, problems } = await session.openPage();
  const field = page.getByRole('figure').filter({ has: page.getByLabel('bytes per number') })
    .getByRole('textbox', { name: 'queries n', exact: true });
  // A few real keystrokes first: the same path the events below take, and its error is shown.
  await field.fill('');
  await field.pressSequentially('-3');
  const alert = page.locator('#figure-cost [role="alert"]:not([hidden])');
  await assert.doesNotReject(alert.first().waitFor());
  assert.match(await alert.first().innerText(), /n must be a whole number >= 1, got -3/);

  const before = await memoryStats(page);
  // Each event is what one keystroke makes: the field's text changes and 'input' fires.
  const shown = await page.evaluate(({ count }) => {
    const input = document.querySelector('#figure-cost input[type="text"]');
    const typed = ['-3', '', 'lots', '0', '1.5', '12a', '-', '1e999', '0x', ' '];
    for (let i = 0; i < count; i++) {
      input.value = typed[i % typed.length];
      input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'x' }));
    }
    // While typing, a message waits for a pause; committing the field (Enter, or leaving it)
    // shows the last one at once.
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return document.querySelector('#figure-cost [role="alert"]:not([hidden])')?.textContent ?? '';
  }, { count: EVENTS });
  const after = await memoryStats(page);
  assert.match(shown, /n must be/, 'the last invalid value still shows its message');
  assert.deepEqual(after, before, `after ${EVENTS} invalid keystrokes`);

  // And the figure still computes: the ViT preset's 29.5 M multiply-adds for Q Kᵀ.
  await page.locator('#figure-cost').getByRole('button', { name: /^ViT image/ }).click();
  assert.match(await page.locator('#figure-cost').getByLabel('multiply-adds for Q Kᵀ').innerText(), /29\.5/);
  assert.deepEqual(problems, []);
});

test('10,000 valid moves across the figures leave heap, stack and handles flat', async (t) => {
  const { page, problems } = await session.openPage();
  // Every slider, picker and radio button of the figures, but the width experiment's slider
  // (each of its moves runs thousands of random trials), the toolbars' own controls and the
  // learn figure's: its training session holds memory in proportion to d_k, so the module's use
  // rightly depends on where d_k ends (tests/js/api/training-sessions.test.mjs checks its sessions for leaks).
  const move = (count) => page.evaluate(({ count: total }) => {
    const controls = [...document.querySelectorAll('[data-figure] input[type="range"], [data-figure] select, [data-figure] input[type="radio"]')]
      .filter((c) => !c.disabled && !c.closest('[data-figure="why-scale"] .control-slider, .figure-toolbar, [data-figure="learn"]'));
    const figures = new Set();
    for (let i = 0; i < total; i++) {
      const control = controls[i % controls.length];
      if (control.type === 'range') {
        const min = Number(control.min || 0);
        const max = Number(control.max || 100);
        control.value = String(min + ((i * 7919) % (max - min + 1)));
      } else if (control.tagName === 'SELECT') {
        control.selectedIndex = (i * 7919) % control.options.length;
      } else {
        control.checked = true;
      }
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
      figures.add(control.closest('[data-figure]').dataset.figure);
    }
    return { controls: controls.length, figures: [...figures] };
  }, { count });
  await move(500); // warm-up: each figure has drawn every state it will see
  const before = await memoryStats(page);
  const { controls, figures } = await move(EVENTS);
  const after = await memoryStats(page);
  t.diagnostic(`${controls} controls in ${figures.length} figures: ${figures.join(', ')}; module ${JSON.stringify(after)}`);
  assert.ok(figures.length >= 6, `moved ${controls} controls in ${figures.join(', ')}`);
  assert.deepEqual(after, before, `after ${EVENTS} moves of ${controls} controls across ${figures.join(', ')}`);
  assert.deepEqual(problems, []);
});
