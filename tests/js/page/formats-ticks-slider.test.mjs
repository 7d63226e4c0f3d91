// The pure parts of the page's primitives, run under node: number formats, the log-scale
// slider mapping and the plot's tick choice.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCount, formatFixed, formatSignificant, formatWeight, formatWeightExact } from '../../../web/src/lib/format/index.js';
import { trailingNumber } from '../../browser/harness.mjs';
import { linearTicks, log2Ticks } from '../../../web/src/lib/charts/plot-scales.js';
import { sliderScale } from '../../../web/src/lib/controls/slider.js';
import { fitPrinted, shownValue } from '../../../web/src/lib/charts/heatmap/canvas.js';

test('formats', () => {
  assert.equal(formatWeight(0.73412), '0.734');
  assert.equal(formatFixed(-0.00001, 3), '0.000', 'no negative zero');
  assert.equal(formatFixed(-1.5, 1), '\u22121.5');
  assert.equal(formatSignificant(0.31622776), '0.316');
  assert.equal(formatSignificant(100), '100');
  assert.equal(formatCount(1048576), '1\u2009048\u2009576');
  assert.equal(formatWeightExact(0.125), '0.1250');
  assert.equal(formatWeightExact(0), '0.0000');
  assert.equal(formatWeightExact(3.1e-7), '3.10e\u22127', 'tiny weights are not shown as zero');
  assert.equal(trailingNumber(`“cat” (1): ${formatWeightExact(3.1e-7)}`), 3.1e-7, 'tests read them back');
});

test('a log slider covers its range end to end and lands on tidy values', () => {
  const scale = sliderScale({ min: 0.01, max: 100, scale: 'log', steps: 200 });
  assert.equal(scale.toValue(0), 0.01);
  assert.equal(scale.toValue(200), 100);
  assert.equal(scale.toValue(100), 1, 'the middle of 0.01…100 on a log scale is 1');
  assert.equal(scale.toPosition(1), 100);
  assert.equal(scale.toPosition(1e9), 200, 'positions are clamped');
  for (let p = 0; p <= 200; p += 1) assert.equal(scale.toPosition(scale.toValue(p)), p, `round trip at ${p}`);
});

test('a linear slider with a step maps integers one to one', () => {
  const scale = sliderScale({ min: 1, max: 10, step: 1 });
  assert.equal(scale.steps, 9);
  assert.equal(scale.toValue(0), 1);
  assert.equal(scale.toValue(9), 10);
  assert.equal(scale.toPosition(6), 5);
});

test('plot ticks', () => {
  assert.deepEqual(linearTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(linearTicks(0, 2.5), [0, 0.5, 1, 1.5, 2, 2.5]);
  assert.deepEqual(log2Ticks(2, 1024), [2, 8, 32, 128, 512]);
  assert.deepEqual(log2Ticks(2, 64), [2, 4, 8, 16, 32, 64]);
});

test('a heat-map cell is coloured for the number it prints, when that number is its value', () => {
  assert.equal(shownValue('0.13', 0.1297), 0.13);
  assert.equal(shownValue('0.13', 0.125), 0.13, 'half a unit of the last decimal still reads as 0.13');
  assert.equal(shownValue('\u22120.50', -0.4996), -0.5, 'a real minus sign');
  assert.equal(shownValue('0.00', -0.004), 0, 'formatFixed never prints −0.00');
  assert.equal(shownValue('1.000', 0.99996), 1);
  // Not the value to fewer digits: the value itself.
  assert.equal(shownValue('13%', 0.13), 0.13, 'a percentage');
  assert.equal(shownValue('0.50', 0.52), 0.52, 'a number that is not this value');
  assert.equal(shownValue('3', 2.9), 2.9, 'no decimals: no rounding to read');
  assert.equal(shownValue('', 0.4), 0.4);
  assert.equal(shownValue('4.2e\u22127', 4.2e-7), 4.2e-7);
});

test('a heat-map number too wide for its cell is printed with fewer decimals of the value itself, or not at all', () => {
  const within = (chars) => (text) => text.length <= chars;
  assert.equal(fitPrinted('0.123', 0.1234, within(5)), '0.123', 'it fits as it is');
  assert.equal(fitPrinted('0.123', 0.1234, within(4)), '0.12');
  assert.equal(fitPrinted('0.126', 0.1256, within(3)), '0.1', 'rounded from the value: 0.1256 to one decimal');
  assert.equal(fitPrinted('\u22120.50', -0.4996, within(4)), '\u22120.5', 'its sign kept');
  assert.equal(fitPrinted('0.004', 0.004, within(1)), '0', 'no sign on a zero');
  assert.equal(fitPrinted('0.42 nats', 0.42, within(8)), '0.4 nats', 'its unit kept');
  assert.equal(fitPrinted('42.0%', 0.42, within(3)), '', 'a percentage of the value is not the value: nothing');
  assert.equal(fitPrinted('0.123', 0.1234, within(0)), '', 'nothing fits');
});
