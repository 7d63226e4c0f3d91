// Figure "Why divide by √d_k": part A puts the lesson's small examples side by side (two and
// four keys whose raw scores are one standard deviation √d_k wide, softmaxed with and without
// the division, examples.js), part B runs the width experiment: random queries against m random
// keys at every width d_k = 2 … 1024, unscaled and scaled (experiment.js). All weights,
// entropies, gradient factors and averages come from the WebAssembly core; these modules only
// arrange them.

import { figureBody } from '../../lib/dom/elements.js';
import { DEFAULT_WIDTH, WIDTH_CHOICES, createExamples } from './examples.js';
import { KEYS, MARKER, createWidthExperiment } from './experiment.js';
import './why-scale.css'; // this figure's styles, bundled into styles.css

/** The figure's settings, as the store, the links and the README's table know them. */
export const SETTINGS = {
  'why-scale.dk': { type: 'enum', values: WIDTH_CHOICES, default: DEFAULT_WIDTH },
  'why-scale.keys': { type: 'integer', min: KEYS.min, max: KEYS.max, default: KEYS.default },
  'why-scale.marker': { type: 'integer', min: MARKER.min, max: MARKER.max, default: MARKER.default },
};

export function mount(element, { lab, state, lifetime }) {
  state.defineAll(SETTINGS);
  const body = figureBody(element, 'figure-body why-scale');
  const examples = createExamples(body, { lab, state, key: 'why-scale.dk' });
  const experiment = createWidthExperiment(body, { lab, state, lifetime, keysKey: 'why-scale.keys', markerKey: 'why-scale.marker' });
  state.subscribe(['why-scale.dk'], examples.render);
  examples.render();
  experiment.start();
}
