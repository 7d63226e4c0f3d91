// What part B of "Why divide by √d_k" shows of a run of the width experiment: a note on the
// trials behind it, two plots (mean largest weight and mean entropy against the key width,
// unscaled, scaled and the flat row) and the numbers read at the marker.

import { formatNats, formatWeight } from '../../lib/format/index.js';
import { createPlot } from '../../lib/charts/plot.js';
import { createReadout } from '../../lib/controls/readout.js';
import { fixedTextBox, htmlElement, setHidden, setText } from '../../lib/dom/elements.js';
import { SQRT, SUBSCRIPT_K } from './shared.js';

export const MAX_LOG2 = 10; // widths 2^1 … 2^10

/**
 * Builds the view in `part`; returns draw({ keys, trials, result, flat, computing }, k, run),
 * run: { seed, fullTrials } (the experiment's fixed settings, for the note), and drawNote(shown,
 * run), the note alone.
 */
export function createExperimentView(part) {
  // The note under the sliders. While the keys slider moves, only its count of trials changes,
  // in a box of fixed width: a new sentence laid out the page again at every press (0.3 ms).
  const trialsNote = htmlElement('p', { class: 'why-scale-trials' }, null, part);
  const noteStart = document.createTextNode('');
  trialsNote.append(noteStart);
  const noteCount = fixedTextBox(trialsNote, 3);
  const noteEnd = document.createTextNode('');
  trialsNote.append(noteEnd);
  const plotsNode = htmlElement('div', { class: 'figure-panels figure-panels-even why-scale-plots' }, null, part);
  const plotPanel = (title, options) => {
    const panel = htmlElement('div', { class: 'figure-panel' }, null, plotsNode);
    htmlElement('p', { class: 'panel-title' }, title, panel);
    // Redrawn at every press of the keys slider, and on a phone below the screen as it moves.
    return createPlot(panel, {
      xLabel: `key width ${SUBSCRIPT_K} (log scale)`, xScale: 'log2', xDomain: [2, 2 ** MAX_LOG2], waitOffScreen: true, ...options,
    });
  };
  const maxPlot = plotPanel('Mean largest weight', {
    label: 'mean largest weight against key width, unscaled and scaled', yLabel: 'mean largest weight', yDomain: [0, 1],
  });
  const entropyPlot = plotPanel('Mean entropy of a row', {
    label: 'mean entropy in nats against key width, unscaled and scaled', yLabel: 'mean entropy (nats)',
  });

  // The values change at every press of the keys slider, each in a box of fixed width (the
  // longest it prints: "1.000", "4.159 nats"), so a new value lays out its box alone; the names
  // change only with the marker.
  const readouts = htmlElement('div', { class: 'readouts why-scale-readouts skips-off-screen-stacked' }, null, part);
  const read = {
    unscaledMax: createReadout(readouts, 'unscaled mean largest weight', { chars: 5 }),
    scaledMax: createReadout(readouts, 'scaled mean largest weight', { chars: 5 }),
    unscaledEntropy: createReadout(readouts, 'unscaled mean entropy', { chars: 10 }),
    scaledEntropy: createReadout(readouts, 'scaled mean entropy', { chars: 10 }),
    flat: createReadout(readouts, 'every key equal (weight 1/m, entropy ln m)', { chars: 17 }),
  };
  setText(read.flat.note, '(the flattest a row can be)');

  // The flat row's series is named by its formula, not its count of keys: a name that changed
  // at every press laid out the legend, and the figure around it, again (0.6 ms a press).
  function drawPlots({ result, flat }, k) {
    const widths = Array.from(result.widths);
    const marker = { x: 2 ** k, label: `d\u2096 = ${2 ** k}` };
    // Redrawn at every press of the keys slider: each series' dots as one path (plot-parts.js).
    const series = (pick, flatValue, flatName) => [
      { name: 'unscaled: q\u00b7k', x: widths, y: Array.from(pick(result.unscaled)), dots: 'path' },
      { name: `scaled: q\u00b7k / ${SQRT}${SUBSCRIPT_K}`, x: widths, y: Array.from(pick(result.scaled)), dots: 'path' },
      { name: `every key equal (${flatName})`, x: widths, y: widths.map(() => flatValue), dots: 'path' },
    ];
    maxPlot.update({ series: series((r) => r.meanMax, flat.max, '1/m'), marker });
    entropyPlot.update({
      series: series((r) => r.meanEntropy, flat.entropy, 'ln m'),
      marker,
      // Room above the flat row's entropy, the ceiling of every curve, in steps of half a nat.
      yDomain: [0, Math.ceil((flat.entropy + 0.1) * 2) / 2],
    });
  }

  function drawReadouts({ result, flat }, k) {
    const index = Array.from(result.widths).indexOf(2 ** k);
    const at = `at ${SUBSCRIPT_K} = ${2 ** k}`;
    setText(read.unscaledMax.labelNode, `unscaled mean largest weight ${at}`);
    setText(read.scaledMax.labelNode, `scaled mean largest weight ${at}`);
    setText(read.unscaledEntropy.labelNode, `unscaled mean entropy ${at}`);
    setText(read.scaledEntropy.labelNode, `scaled mean entropy ${at}`);
    setText(read.unscaledMax.output, formatWeight(result.unscaled.meanMax[index]));
    setText(read.scaledMax.output, formatWeight(result.scaled.meanMax[index]));
    setText(read.unscaledEntropy.output, formatNats(result.unscaled.meanEntropy[index]));
    setText(read.scaledEntropy.output, formatNats(result.scaled.meanEntropy[index]));
    setText(read.flat.output, `${formatWeight(flat.max)}, ${formatNats(flat.entropy)}`);
  }

  function drawNote({ keys, trials, computing }, { seed, fullTrials }) {
    const isPreview = trials < fullTrials;
    const setNote = (start, count, end) => {
      if (noteStart.data !== start) noteStart.data = start;
      setHidden(noteCount, count === null);
      if (count !== null) setText(noteCount, String(count));
      if (noteEnd.data !== end) noteEnd.data = end;
    };
    if (!isPreview) {
      setNote(`Averages over T = ${trials} random queries per width, each against ${keys} random keys, ` +
        `all entries drawn from N(0, 1) with seed ${seed}.`, null, '');
    } else if (computing) {
      setNote('Preview from T = ', trials, ` random queries per width; computing T = ${fullTrials}\u2026`);
    } else {
      setNote('Preview from T = ', trials, ` random queries per width while the slider moves; let go for T = ${fullTrials}.`);
    }
    trialsNote.classList.toggle('why-scale-preview', isPreview);
  }

  return {
    draw(shown, k, run) {
      drawPlots(shown, k);
      drawReadouts(shown, k);
      drawNote(shown, run);
    },
    /** Only the note under the plots (what is shown is the same; whether more is coming is not). */
    drawNote,
  };
}
