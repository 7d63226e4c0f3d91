// A graded figure's progress, told to whoever listens: the LMS adapter (scorm.js) turns it
// into a score and a completion. A figure that grades what the learner types (check-yourself,
// by-hand's predict-then-check) calls reportProgress after every check; it bubbles out of the
// figure (and out of an element's shadow root) and costs nothing when nobody listens.

export const PROGRESS_EVENT = 'attention-lab:progress';

/**
 * A tally of graded items, each scored once: `earned` (right without being shown the answer)
 * or `shown` (the answer was asked for first, or the item was given up). Returns
 * { record(index, earned), summary() }.
 */
export function createTally(count) {
  const results = new Array(count).fill(null);
  return {
    /** The first outcome of an item counts; a later one does not change it. */
    record(index, earned) {
      if (results[index] === null) results[index] = earned ? 'earned' : 'shown';
    },
    summary() {
      return {
        raw: results.filter((r) => r === 'earned').length,
        min: 0,
        max: count,
        completed: results.every((r) => r !== null),
      };
    },
  };
}

/** Tells listeners this figure's { raw, min, max, completed }. */
export function reportProgress(figureElement, progress) {
  figureElement.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { bubbles: true, composed: true, detail: { ...progress } }));
}
