// The learn figure's target: the loss a copy must get below for the figure to call it learned,
// and the sentences that say where each copy stands. The target is the lesson's: below 0.05 the
// head fetches the right content for nearly every query (the targets are N(0, 1), so a loss of 1
// is a head that fetched nothing). The step numbers come from the core's own step records.

import { formatCount } from '../../lib/format/index.js';

export const TARGET_LOSS = 0.05;
export const TARGET_TEXT = '0.05';

/** Where one copy stands: { reachedAt } (a step, or null) and the steps it has taken. */
export function targetSentence({ reachedAt, steps, diverged }, { running = false } = {}) {
  if (reachedAt !== null) return `reached loss < ${TARGET_TEXT} at step ${formatCount(reachedAt)}`;
  if (diverged) return `diverged at step ${formatCount(steps)} without reaching loss < ${TARGET_TEXT}`;
  // While a run goes on, a step count would be stale the moment it is read out.
  if (steps === 0 || running) return `loss < ${TARGET_TEXT} not reached yet`;
  return `not reached loss < ${TARGET_TEXT} by step ${formatCount(steps)}`;
}

/** Why a run stopped, or null while it may go on. `cap` is the page's step limit. */
export function stopReason({ scaled, unscaled }, taken, cap) {
  const done = (c) => c.reachedAt !== null || c.diverged;
  if (done(scaled) && done(unscaled)) {
    if (scaled.reachedAt !== null && unscaled.reachedAt !== null) return 'both copies reached the target';
    return 'neither copy can go further towards the target';
  }
  if (taken >= cap) return `the page's limit of ${formatCount(cap)} steps`;
  return null;
}

/** One line for the whole run, the same on screen and for a screen reader. */
// While running it names no step count (the counter moves on every frame), only what has happened.
// Short enough for one line on a 1280×720 slide.
export function runSummary({ scaled, unscaled }, taken, { running, stopped }) {
  const copy = (c, name) => {
    if (c.reachedAt !== null) return `${name} copy reached loss < ${TARGET_TEXT} at step ${formatCount(c.reachedAt)}`;
    if (c.diverged) return `${name} copy diverged at step ${formatCount(c.steps)}`;
    return running || c.steps === 0 ? `${name.toLowerCase()} copy not yet` : `${name.toLowerCase()} copy not by step ${formatCount(c.steps)}`;
  };
  const pending = (c) => c.reachedAt === null && !c.diverged;
  const prefix = running ? 'Training.' : stopped ? `Stopped: ${stopped}.` : `Step ${formatCount(taken)}.`;
  if (pending(scaled) && pending(unscaled)) return `${prefix} Neither copy has reached loss < ${TARGET_TEXT} yet.`;
  const [first, second] = pending(scaled) ? [copy(unscaled, 'Unscaled'), copy(scaled, 'Scaled')] : [copy(scaled, 'Scaled'), copy(unscaled, 'Unscaled')];
  return `${prefix} ${first}; ${second}.`;
}
