// Themes as a course author meets them: the README's restyled element on a light course page
// read by someone whose system is dark; a host that declares color-scheme; theme=light|dark|auto
// as an element attribute and as a URL key of the embed and the page; an iframe on a light
// course page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DESKTOP, useBrowser } from './harness.mjs';
import { elementNotices, elementsReady, eventually, openHost } from './host-page.mjs';

const session = useBrowser();
const SCRIPT = '<script src="attention-figure.js"></script>';
const LIGHT_FG = 'rgb(29, 31, 36)'; // --al-fg, light
const DARK_FG = 'rgb(232, 233, 236)'; // --al-fg, dark
const LIGHT_BG = 'rgb(251, 250, 247)'; // --al-bg, light
const DARK_BG = 'rgb(21, 23, 27)'; // --al-bg, dark
const dark = { ...DESKTOP, colorScheme: 'dark' };
const light = { ...DESKTOP, colorScheme: 'light' };

/** Text and background colours inside an element: its figure's text, the background behind the figure. */
function elementColours(locator) {
  return locator.evaluate((element) => {
    const figure = element.shadowRoot.querySelector('[data-figure]');
    const behind = figure.parentElement ?? element; // the frame, or the host when the figure sits at the root
    return { fg: getComputedStyle(figure).color, bg: getComputedStyle(behind).backgroundColor };
  });
}

// The README's element example, exactly as printed there.
async function readmeElementExample() {
  const readme = await readFile(join(fileURLToPath(new URL('../..', import.meta.url)), 'README.md'), 'utf8');
  const start = readme.indexOf('**The `<attention-figure>` element** draws');
  const block = /```html\n([\s\S]*?)```/.exec(readme.slice(start))[1];
  return block.replace('https://example.org/attention-lab/attention-figure.js', 'attention-figure.js');
}

test('the README\'s restyled element reads dark on light for a reader whose system is dark, and for one whose is light', async () => {
  const example = await readmeElementExample();
  assert.match(example, /<attention-figure /);
  for (const contextOptions of [dark, light]) {
    const { page, context, problems } = await openHost(session, `<h1>Week 3</h1>${example}`, { contextOptions });
    await elementsReady(page);
    const colours = await elementColours(page.locator('attention-figure'));
    assert.deepEqual(colours, { fg: LIGHT_FG, bg: 'rgb(255, 255, 255)' }, `${contextOptions.colorScheme} system`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('theme="auto" follows the host page\'s color-scheme where it sets one, else the reader\'s preference', async () => {
  const cases = [
    ['<style>:root { color-scheme: light; }</style>', dark, LIGHT_FG],
    ['<style>attention-figure { color-scheme: light; }</style>', dark, LIGHT_FG],
    ['<meta name="color-scheme" content="dark">', light, DARK_FG],
    ['', dark, DARK_FG],
    ['', light, LIGHT_FG],
    ['<style>:root { color-scheme: light dark; }</style>', dark, DARK_FG],
  ];
  for (const [head, contextOptions, fg] of cases) {
    const { page, context, problems } = await openHost(session, `${SCRIPT}<attention-figure name="temperature"></attention-figure>`,
      { head, contextOptions });
    await elementsReady(page);
    assert.equal((await elementColours(page.locator('attention-figure'))).fg, fg, `${head || 'no color-scheme'}, ${contextOptions.colorScheme} system`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('theme="light" and "dark" win over the host and the system, live; a bad theme gets a notice', async () => {
  const { page, context, problems } = await openHost(session,
    `${SCRIPT}<attention-figure name="temperature" theme="light"></attention-figure>`, { head: '<style>:root { color-scheme: dark; }</style>', contextOptions: dark });
  await elementsReady(page);
  const figure = page.locator('attention-figure');
  assert.deepEqual(await elementColours(figure), { fg: LIGHT_FG, bg: LIGHT_BG });
  await figure.evaluate((element) => { element.theme = 'dark'; });
  assert.deepEqual(await eventually(() => elementColours(figure), { fg: DARK_FG, bg: DARK_BG }), { fg: DARK_FG, bg: DARK_BG });
  await figure.evaluate((element) => element.setAttribute('theme', 'sepia'));
  assert.deepEqual(await eventually(() => elementNotices(figure), ['This element asked for theme = sepia, which is not one of auto, light, dark, host; using auto.']),
    ['This element asked for theme = sepia, which is not one of auto, light, dark, host; using auto.']);
  // auto under a host that says dark
  assert.equal((await elementColours(figure)).fg, DARK_FG);
  // The host page switches its own scheme (a class on <html>): the element follows.
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = 'html.light-mode { color-scheme: light; }';
    document.head.append(style);
    document.documentElement.classList.add('light-mode');
  });
  assert.equal((await eventually(() => elementColours(figure), { fg: LIGHT_FG, bg: LIGHT_BG })).fg, LIGHT_FG);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an iframe asked for theme=light on a light course page is light for a dark-system reader, and theme=dark is dark', async () => {
  for (const [theme, bg] of [['light', LIGHT_BG], ['dark', DARK_BG]]) {
    const { page, context, problems } = await openHost(session,
      `<h1>Week 3</h1><iframe src="embed.html?figure=temperature&amp;tau=0.5&amp;theme=${theme}" title="figure" width="800" height="600"></iframe>`,
      { head: '<style>:root { color-scheme: light; background: #fff; }</style>', contextOptions: theme === 'light' ? dark : light });
    const frame = page.frameLocator('iframe');
    await frame.getByLabel('temperature τ').waitFor();
    const colours = await frame.locator('html').evaluate((html) => ({
      bg: getComputedStyle(html).backgroundColor, fg: getComputedStyle(html).color,
    }));
    assert.equal(colours.bg, bg, `theme=${theme}`);
    // The key stays in the embed's URL when the learner changes a setting.
    await frame.getByLabel('query token').selectOption('3');
    const frameUrl = await eventually(async () => /query=3/.test(await frame.locator('html').evaluate(() => location.search)), true);
    assert.ok(frameUrl);
    assert.match(await frame.locator('html').evaluate(() => location.search), new RegExp(`theme=${theme}`));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the page takes theme=dark and theme=light from its link', async () => {
  const darkPage = await session.openPage({ search: '?theme=dark', contextOptions: light });
  assert.equal(await darkPage.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), DARK_BG);
  const lightPage = await session.openPage({ search: '?theme=light&temperature.tau=2', contextOptions: dark });
  assert.equal(await lightPage.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), LIGHT_BG);
  // A figure's own settings still work beside it, and the key is no figure's setting.
  assert.equal(await lightPage.page.locator('#figure-temperature').getByLabel('temperature τ').getAttribute('aria-valuetext'), '2');
  assert.deepEqual(lightPage.problems, []);
  const auto = await session.openPage({ contextOptions: dark });
  assert.equal(await auto.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), DARK_BG);
});
