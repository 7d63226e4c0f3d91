// The "three roles" figure, checked through what a learner sees: the encoder's full 8 × 8 map,
// the decoder's causal map (blank above the diagonal, rows still summing to 1) and the
// encoder–decoder map with three French queries against eight English keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, fitsOrScrollsInItsFrame, trailingNumber, useBrowser } from './harness.mjs';

const session = useBrowser();

function rolesFigure(page) {
  const figure = page.getByRole('figure').filter({ has: page.getByRole('group', { name: 'attention role' }) });
  return {
    figure,
    encoder: figure.getByRole('radio', { name: 'encoder self-attention' }),
    decoder: figure.getByRole('radio', { name: 'decoder self-attention (causal mask)' }),
    cross: figure.getByRole('radio', { name: 'encoder–decoder attention' }),
    head: figure.getByLabel('head', { exact: true }),
    grid: figure.getByRole('grid'), // only the chosen role's map is shown
    sources: figure.locator('dl'),
    strongest: figure.getByRole('list', { name: 'Where each query puts most weight' }).getByRole('listitem'),
  };
}

/** The shown map as rows of cell names. */
async function cellNames(grid) {
  const rows = await grid.getByRole('row').count();
  const out = [];
  for (let i = 0; i < rows; i += 1) {
    out.push(await grid.getByRole('row').nth(i).getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label'))));
  }
  return out;
}

/** What is printed inside each cell of the shown map (empty for a blank cell). */
async function printedValues(grid) {
  return grid.getByRole('gridcell').evaluateAll((cells) => cells.map((cell) => cell.drawn.text));
}

test('by default the encoder role shows a full 8 × 8 map whose rows sum to 1', async () => {
  const { page, problems } = await session.openPage();
  const view = rolesFigure(page);
  await view.figure.waitFor();
  assert.equal(await page.getByRole('heading', { level: 2, name: 'Three places, one formula' }).count(), 1);
  assert.equal(await view.encoder.isChecked(), true);
  assert.equal(await view.grid.count(), 1, 'one map at a time');
  assert.equal(await view.grid.getByRole('gridcell').count(), 64);
  const names = await cellNames(view.grid);
  for (const row of names) {
    assert.ok(row.every((name) => !/masked/.test(name)), 'nothing is masked in the encoder');
    const sum = row.map(trailingNumber).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.002, `row sums to ${sum}`);
  }
  const rowLabels = await view.grid.getByRole('row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
  for (const label of rowLabels) assert.match(label, /row sum 1\.000$/);
  const sources = await view.sources.innerText();
  assert.match(sources, /Q \(queries\) from\s+the encoder’s tokens \(8 × 64\)/);
  assert.match(sources, /weights\s+8 × 8/);
  assert.match(await view.figure.locator('figcaption').innerText(), /where|queries, keys and values/i);
  assert.deepEqual(problems, []);
});

test('in the decoder role every cell above the diagonal is blank and every row sum reads 1.000', async () => {
  const { page, problems } = await session.openPage();
  const view = rolesFigure(page);
  await view.decoder.check();
  assert.equal(await view.grid.getAttribute('aria-label'), 'decoder self-attention weights with the causal mask, queries by keys');
  const names = await cellNames(view.grid);
  const printed = await printedValues(view.grid);
  assert.equal(printed.length, 64);
  for (let i = 0; i < 8; i += 1) {
    for (let j = 0; j < 8; j += 1) {
      if (j > i) {
        assert.match(names[i][j], /masked \(no weight\)$/, `cell ${i},${j} is masked`);
        assert.equal(printed[i * 8 + j], '', `cell ${i},${j} is drawn blank`);
      } else {
        assert.match(printed[i * 8 + j], /^\d\.\d\d$/, `cell ${i},${j} shows a weight`);
      }
    }
    const sum = names[i].slice(0, i + 1).map(trailingNumber).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.002, `row ${i}'s allowed weights add up to ${sum}`);
  }
  assert.equal(trailingNumber(names[0][0]), 1, 'the first token can only look at itself');
  const printedSums = await view.grid.locator('text.heatmap-row-note').allTextContents();
  assert.deepEqual(printedSums, Array(8).fill('1.000'));
  await page.waitForFunction(() => location.search.includes('roles.kind=decoder'));
  assert.deepEqual(problems, []);
});

test('encoder–decoder attention: a 3 × 8 map with French queries and English keys; "chat" looks at "cat"', async () => {
  const { page, problems } = await session.openPage();
  const view = rolesFigure(page);
  await view.cross.check();
  assert.equal(await view.grid.getAttribute('aria-rowcount'), '3');
  assert.equal(await view.grid.getAttribute('aria-colcount'), '8');
  assert.equal(await view.grid.getByRole('gridcell').count(), 24);
  const names = await cellNames(view.grid);
  assert.equal(names.length, 3);
  assert.match(names[1][1], /^decoder query “chat” \(1\), encoder key “cat” \(1\): /);
  const chat = names[1].map(trailingNumber);
  assert.equal(chat.indexOf(Math.max(...chat)), 1, 'with one full-width head, "chat" puts most weight on "cat"');
  for (const row of names) {
    const sum = row.map(trailingNumber).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.002, `row sums to ${sum}`);
  }
  const sources = await view.sources.innerText();
  assert.match(sources, /Q \(queries\) from\s+the decoder’s tokens “le chat s'assit” \(3 × 64\)/);
  assert.match(sources, /K \(keys\) from\s+the encoder’s tokens “the cat sat on the mat because it” \(8 × 64\)/);
  assert.match(sources, /weights\s+3 × 8/);
  assert.deepEqual(problems, []);
});

test('at h = 4, head 0 of the cross map lines each French word up with its English one', async () => {
  const { page, problems } = await session.openPage();
  const view = rolesFigure(page);
  await view.cross.check();
  await view.head.selectOption({ label: 'h = 4, head 0: same word' });
  const names = await cellNames(view.grid);
  const argmax = (row) => row.indexOf(Math.max(...row));
  assert.equal(argmax(names[1].map(trailingNumber)), 1, '"chat" → "cat"');
  assert.equal(argmax(names[2].map(trailingNumber)), 2, '"s\'assit" → "sat"');
  const strongest = await view.strongest.allInnerTexts();
  assert.equal(strongest.length, 3);
  assert.match(strongest[1], /^“chat” \(1\) → “cat” \(1\)/);
  assert.match(strongest[2], /^“s'assit” \(2\) → “sat” \(2\)/);
  // "le" matches both "the"s equally: a tie is reported as a tie, not as one strongest key.
  assert.equal(names[0].map(trailingNumber)[0], names[0].map(trailingNumber)[4]);
  assert.match(strongest[0], /^“le” \(0\) → “the” \(0\) and “the” \(4\), 0\.\d{3} each$/);
  // What the decoder's queries are is said plainly.
  assert.match(await view.figure.locator('.roles-query-note').innerText(),
    /no trained decoder\. Its query rows are exactly the English rows .*“le” = “the”, “chat” = “cat”, “s'assit” = “sat”/);
  await page.waitForFunction(() => location.search.includes('roles.head=4-0'));
  assert.deepEqual(problems, []);
});

test('a link restores role and head; the keyboard moves between roles', async () => {
  const restored = await session.openPage({ search: '?roles.role=decoder&roles.head=2-1' });
  let view = rolesFigure(restored.page);
  assert.equal(await view.decoder.isChecked(), true);
  assert.equal(await view.head.inputValue(), '2-1');
  assert.match(await view.figure.innerText(), /decoder self-attention \(causal mask\): h = 2, head 1/);
  assert.deepEqual(restored.problems, []);

  const { page, problems } = await session.openPage({ search: '?roles.role=bogus' });
  view = rolesFigure(page);
  assert.equal(await view.encoder.isChecked(), true, 'an unknown role falls back to the encoder');
  assert.match(await page.getByRole('status', { name: 'Notes about the link' }).innerText(), /roles\.role = bogus/);
  await view.encoder.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await view.decoder.isChecked(), true, 'arrow keys move through the radio group');
  assert.equal(await view.grid.getByRole('gridcell', { name: /masked/ }).count(), 28, '28 cells above the diagonal');
  assert.deepEqual(problems, []);
});

test('the figure fits a 375 px phone screen without sideways scrolling', async () => {
  const { page, problems } = await session.openPage({ contextOptions: PHONE });
  const view = rolesFigure(page);
  for (const radio of [view.encoder, view.decoder, view.cross]) {
    await radio.check();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    assert.ok(await fitsOrScrollsInItsFrame(view.grid, 375), 'the map fits the screen or scrolls inside its frame');
  }
  assert.deepEqual(problems, []);
});
