// Every figure of the page, by the name used in data-figure, in embed URLs and in the
// <attention-figure name="…"> element. The page, the iframe embed and the element all mount
// figures from this one list; figures never import each other.

import * as allAtOnce from './all-at-once.js';
import * as byHand from './by-hand/index.js';
import * as checkYourself from './check-yourself.js';
import * as cost from './cost/index.js';
import * as heads from './heads/index.js';
import * as learn from './learn/index.js';
import * as lookup from './lookup.js';
import * as map from './map.js';
import * as measured from './measured/index.js';
import * as mistakes from './mistakes.js';
import * as roles from './roles.js';
import * as temperature from './temperature.js';
import * as whyScale from './why-scale/index.js';

export const FIGURES = {
  lookup,
  'by-hand': byHand,
  temperature,
  'all-at-once': allAtOnce,
  'why-scale': whyScale,
  learn,
  heads,
  cost,
  measured,
  map,
  roles,
  mistakes,
  'check-yourself': checkYourself,
};
