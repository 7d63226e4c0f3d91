// The embed snippets (web/src/lib/share/links.js) as the toolbar and the author page make them:
// the figure's settings in the iframe's src and as the element's attributes, and presentation
// keys (theme, toolbar, …) in both when given, but never in the fallback link's text.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embedSnippets } from '../../../web/src/lib/share/links.js';
import { createStore } from '../../../web/src/lib/state/store.js';

function demoStore() {
  const state = createStore();
  state.defineAll({
    'demo.tau': { type: 'number', min: 0.01, max: 100, default: 1 },
    'demo.causal': { type: 'boolean', default: false },
  });
  state.set('demo.tau', 2);
  return state;
}

const base = 'https://example.org/lab/';

test('the settings go into the iframe src and the element attributes', () => {
  const { iframe, element, src } = embedSnippets({ state: demoStore(), figureName: 'demo', embedBase: base, title: 'Demo' });
  assert.equal(src, 'https://example.org/lab/embed.html?figure=demo&tau=2&causal=off#picture-demo');
  assert.match(iframe, /embed\.html\?figure=demo&amp;tau=2&amp;causal=off#picture-demo/);
  assert.match(element, /<attention-figure name="demo" tau="2" causal="off">/);
});

test('presentation keys join both snippets, not the fallback link text', () => {
  const { element, src } = embedSnippets({
    state: demoStore(), figureName: 'demo', embedBase: base, title: 'Demo',
    pageLink: 'https://example.org/lab/index.html?demo.tau=2#figure-demo', presentation: { theme: 'dark', toolbar: 'off' },
  });
  assert.equal(new URL(src).searchParams.get('theme'), 'dark');
  assert.equal(new URL(src).searchParams.get('toolbar'), 'off');
  assert.match(element, /tau="2" causal="off" theme="dark" toolbar="off">/);
  assert.match(element, />Open the interactive figure at tau = 2, causal = off<\/a>/);
});
