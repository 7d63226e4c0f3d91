// Helpers shared by the toolbar, export and URL tests: every figure on the page is found
// through its data-figure attribute, its settings through the page's read-only
// window.attentionLab introspection, and its toolbar through its accessible name.

import { readFile } from 'node:fs/promises';
import { DESKTOP } from './harness.mjs';

/** A desktop context that may read and write the clipboard (for "Copy link" and the embed code). */
export const CLIPBOARD = { ...DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] };

/** Names of the figures on the page that mounted (their toolbar exists), in page order. */
export function figureNames(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-figure]')]
    .filter((figure) => figure.querySelector('.figure-toolbar'))
    .map((figure) => figure.dataset.figure));
}

export function figureLocator(page, name) {
  return page.locator(`[data-figure="${name}"]`);
}

/** The toolbar of a figure, found as a group by its accessible name. */
export function toolbarOf(page, name) {
  return figureLocator(page, name).getByRole('group', { name: /^Share or export/ });
}

/** { key: schema } for every state key of a figure. */
export function schemasOf(page, name) {
  return page.evaluate((figure) => Object.fromEntries(
    window.attentionLab.keys(figure).map((key) => [key, window.attentionLab.schema(key)]),
  ), name);
}

export function valuesOf(page, keys) {
  return page.evaluate((list) => Object.fromEntries(list.map((key) => [key, window.attentionLab.value(key)])), keys);
}

/**
 * A valid value different from the default: the other of on/off, the next enum value, one step
 * up (or down), or halfway to a bound.
 */
export function nonDefault(schema) {
  if (schema.type === 'boolean') return !schema.default;
  if (schema.type === 'enum') return schema.values.find((v) => v !== schema.default);
  if (schema.type === 'integer') return schema.default + 1 <= schema.max ? schema.default + 1 : schema.default - 1;
  const bound = schema.max > schema.default ? schema.max : schema.min;
  return Number(((schema.default + bound) / 2).toPrecision(6));
}

/**
 * What the figure's controls show, outside its toolbar: every form field's value, checked and
 * disabled state, the ARIA state of custom controls (sliders, tabs, toggles, rows), and which
 * controls are visible. Two views with the same settings give the same snapshot.
 */
export function controlSnapshot(page, name) {
  return figureLocator(page, name).evaluate((figure) => {
    const selector = 'input, select, textarea, button, [role="slider"], [role="tab"], [role="radio"], [role="checkbox"], '
      + '[role="switch"], [role="spinbutton"], [aria-pressed], [aria-checked], [aria-expanded], [role="row"][aria-selected]';
    return [...figure.querySelectorAll(selector)]
      .filter((el) => !el.closest('.figure-toolbar'))
      .map((el) => [
        el.localName, el.getAttribute('type') ?? el.getAttribute('role') ?? '',
        el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent.trim().slice(0, 40),
        'value' in el && el.localName !== 'button' ? el.value : '',
        el.checked ? 'checked' : '', el.disabled ? 'disabled' : '',
        ['aria-valuetext', 'aria-valuenow', 'aria-pressed', 'aria-checked', 'aria-expanded', 'aria-selected']
          .map((a) => el.getAttribute(a) ?? '').join('/'),
        el.getClientRects().length ? 'shown' : 'hidden',
      ].join('|'));
  });
}

/** Clicks the figure's "Copy link" and returns what landed on the clipboard. */
export async function copyLink(page, name) {
  const toolbar = toolbarOf(page, name);
  await toolbar.getByRole('button', { name: 'Copy link' }).click();
  await toolbar.getByRole('status').filter({ hasText: /Link copied/ }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The list items of the page's notice box (empty when it is hidden). */
export function noticesOf(page) {
  return page.evaluate(() => {
    const list = document.getElementById('notices');
    return list.hidden ? [] : [...list.children].map((item) => item.textContent);
  });
}

/** Clicks a button that downloads a file; resolves to { name, bytes } of the saved file. */
export async function downloadBy(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const failure = await download.failure();
  if (failure) throw new Error(`download of ${download.suggestedFilename()} failed: ${failure}`);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** A value as the page's links spell it: on/off for an on/off setting, else the value itself. */
export function linkText(schema, value) {
  return schema.type === 'boolean' ? (value ? 'on' : 'off') : String(value);
}
