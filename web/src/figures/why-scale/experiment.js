// Part B of "Why divide by √d_k": the width experiment, random queries against m random keys
// at every width d_k = 2 … 1024, unscaled and scaled, averaged by the WebAssembly core.
// widthExperiment at m = 64 and 2000 trials took about 100 ms in Chromium on the build machine,
// too slow for a key press or a tick of a drag: the figure answers at once with a preview from
// fewer trials, and the full run follows in pieces. The preview's work grows with m·T, so T
// shrinks as m grows (200 up to 16 keys, 50 at 64), keeping it near 1 ms. Both are kept per m:
// a drag back over a setting shows its full run if it has one, else its preview again.

import { createSlider } from '../../lib/controls/slider.js';
import { afterNextPaint, yieldToBrowser } from '../../lib/dom/yield.js';
import { htmlElement } from '../../lib/dom/elements.js';
import { createFigureProblem } from '../../lib/dom/figure-problem.js';
import { MAX_LOG2, createExperimentView } from './experiment-view.js';
import { oneRow } from './shared.js';

// The experiment's fixed settings. A fixed seed makes every number reproducible.
const SEED = 1;
const FULL_TRIALS = 2000;
/** How long the keys slider must rest before the full run starts (ms). */
const QUIET_MS = 150;
const previewTrials = (keys) => Math.max(50, Math.min(200, Math.round((200 * 16) / keys)));
export const KEYS = { min: 2, max: 64, default: 10 };
export const MARKER = { min: 1, max: MAX_LOG2, default: 6 };

/** The full run at m keys, one width per task, joined as one result (null when outdated). */
async function fullRun(lab, keys, isCurrent) {
  // At 64 keys it is about 50 ms of work, which in one piece would hold up the slider. Each
  // width has its own random stream in the core, so the pieces are exactly the full run.
  const pieces = [];
  for (let k = 1; k <= MAX_LOG2; k += 1) {
    await yieldToBrowser();
    if (!isCurrent()) return null; // the reader moved on; a newer run takes over
    pieces.push(lab.widthExperiment({ keys, minLog2: k, maxLog2: k, trials: FULL_TRIALS, seed: SEED }));
  }
  const joined = (pick) => Float64Array.from(pieces, (piece) => pick(piece)[0]);
  return {
    widths: joined((p) => p.widths),
    unscaled: { meanMax: joined((p) => p.unscaled.meanMax), meanEntropy: joined((p) => p.unscaled.meanEntropy) },
    scaled: { meanMax: joined((p) => p.scaled.meanMax), meanEntropy: joined((p) => p.scaled.meanEntropy) },
  };
}

/** The two sliders of part B, setting `keys.key` and `marker.key`; onDrag tells a drag from a release. */
function createSliders(parent, { state, keysKey, markerKey, onDrag }) {
  const controls = htmlElement('div', { class: 'figure-controls' }, null, parent);
  const keys = createSlider(controls, {
    label: 'keys m',
    hint: 'How many random keys each random query is compared with.',
    min: KEYS.min, max: KEYS.max, step: 1,
    value: state.get(keysKey),
    format: (v) => String(v),
    onInput: (value) => onDrag(() => state.set(keysKey, value)),
  });
  const marker = createSlider(controls, {
    label: 'marker at d\u2096 = 2^k',
    hint: 'Moves the marker line; the four numbers below are read there.',
    min: MARKER.min, max: MARKER.max, step: 1,
    value: state.get(markerKey),
    format: (k) => `${2 ** k} (k = ${k})`,
    onInput: (value) => state.set(markerKey, value),
  });
  return { keys, marker };
}

/** Part B in `body`, following the settings `keysKey` (m) and `markerKey`; returns { start }. */
export function createWidthExperiment(body, { lab, state, lifetime, keysKey, markerKey }) {
  const part = htmlElement('div', { class: 'why-scale-part' }, null, body);
  htmlElement('h3', { class: 'why-scale-part-title' }, 'B. Random queries and keys at every width', part);
  let dragging = false; // true while a slider's input event is being handled
  const sliders = createSliders(part, {
    state, keysKey, markerKey,
    onDrag: (set) => {
      dragging = true;
      set();
      dragging = false;
    },
  });
  const view = createExperimentView(part);
  const problem = createFigureProblem(part);

  const fullResults = new Map(); // keys m → the experiment at FULL_TRIALS, computed once
  // keys m → its preview, computed once: the same seed gives the same numbers, so a drag that
  // comes back over a setting shows it again without running it again (at most 63 of them).
  const previews = new Map();
  let shown = null; // { keys, trials, result, flat, computing }
  let previewFrame = 0;
  let runNumber = 0; // number of the latest full run: a newer run (or a preview) ends an older one
  let quietTimer = 0;
  let prefetch = { cancel: () => {} };
  // A figure that leaves the page ends its deferred run, its preview frame and its prefetch.
  lifetime?.add(() => {
    runNumber += 1;
    clearTimeout(quietTimer);
    cancelAnimationFrame(previewFrame);
    prefetch.cancel();
  });

  const draw = () => view.draw(shown, state.get(markerKey), { seed: SEED, fullTrials: FULL_TRIALS });

  function show(keys, trials, result, computing = false) {
    // Reference row: every one of m keys weighted equally (its max and entropy, from the core).
    const stats = lab.rowStats(oneRow(new Array(keys).fill(1 / keys)));
    shown = { keys, trials, result, flat: { max: stats.max[0], entropy: stats.entropy[0] }, computing };
    draw();
    problem.clear();
  }

  const previewOf = (keys) => {
    if (!previews.has(keys)) previews.set(keys, lab.widthExperiment({ keys, maxLog2: MAX_LOG2, trials: previewTrials(keys), seed: SEED }));
    return previews.get(keys);
  };

  /**
   * Arrow keys and drags move m a step at a time: after the frame that shows m, the previews
   * of m − 1 and m + 1 are computed, one per task, so that the next step draws at once instead
   * of spending up to a millisecond in the core before its frame.
   */
  function prefetchNeighbours(keys) {
    prefetch.cancel();
    const wanted = [keys + 1, keys - 1].filter((m) => m >= KEYS.min && m <= KEYS.max && !previews.has(m) && !fullResults.has(m));
    if (wanted.length === 0) return;
    let cancelled = false;
    const cancelPaint = afterNextPaint(async () => {
      for (const m of wanted) {
        if (cancelled) return;
        try {
          previewOf(m);
        } catch {
          return; // the step itself will show the problem, should the reader make it
        }
        await yieldToBrowser();
      }
    });
    prefetch = { cancel: () => { cancelled = true; cancelPaint(); } };
  }

  /**
   * The cheap run (all widths in one call of about a millisecond), shown while a drag moves;
   * at a setting whose full run is done, that run instead.
   */
  function preview(computing = false) {
    const keys = state.get(keysKey);
    prefetchNeighbours(keys);
    if (fullResults.has(keys)) {
      show(keys, FULL_TRIALS, fullResults.get(keys));
      return true;
    }
    try {
      show(keys, previewTrials(keys), previewOf(keys), computing);
      return true;
    } catch (error) {
      problem.show(error, 'run the experiment');
      return false;
    }
  }

  /** The full run, in pieces; the preview stands in until the last piece is in. */
  async function computeFull({ after = 0 } = {}) {
    const keys = state.get(keysKey);
    const run = ++runNumber;
    if (fullResults.has(keys)) {
      show(keys, FULL_TRIALS, fullResults.get(keys));
      return;
    }
    if (shown && shown.keys === keys && !shown.computing) {
      // The preview of these keys is on screen already (a drag's, or a key press's from the
      // frame before its release): say that the full run is coming, without running it again.
      shown = { ...shown, computing: true };
      view.drawNote(shown, { seed: SEED, fullTrials: FULL_TRIALS });
    } else if (!(shown && shown.keys === keys) && !preview(true)) {
      return;
    }
    // Key presses come in runs: the full run waits until they pause, so that its pieces never
    // hold up the next press (each press has its preview at once).
    if (after > 0) {
      await new Promise((resume) => { quietTimer = setTimeout(resume, after); });
      if (run !== runNumber) return;
    }
    let result;
    try {
      result = await fullRun(lab, keys, () => run === runNumber);
    } catch (error) {
      problem.show(error, 'run the experiment');
      return;
    }
    if (!result) return;
    fullResults.set(keys, result);
    show(keys, FULL_TRIALS, result);
  }

  function commit() {
    cancelAnimationFrame(previewFrame);
    previewFrame = 0;
    if (shown && shown.keys === state.get(keysKey) && shown.trials === FULL_TRIALS) return;
    if (shown?.computing && shown.keys === state.get(keysKey)) return; // already on its way
    computeFull({ after: QUIET_MS });
  }

  function schedulePreview() {
    if (previewFrame) return;
    previewFrame = requestAnimationFrame(() => {
      previewFrame = 0;
      runNumber += 1; // a drag outdates any full run still in progress
      preview();
    });
  }

  // Release of a drag (or a key press) commits the full run.
  for (const type of ['change', 'pointerup', 'keyup']) sliders.keys.input.addEventListener(type, commit);
  state.subscribe([keysKey], () => {
    sliders.keys.set(state.get(keysKey));
    if (dragging) schedulePreview();
    else commit();
  });
  state.subscribe([markerKey], () => {
    sliders.marker.set(state.get(markerKey));
    if (shown) draw();
  });
  return { start: () => computeFull() };
}
