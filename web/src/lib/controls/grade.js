// Grading a typed prediction against the core's value, shared by every predict-then-check
// form on the page. The tolerance is relative, plus a small floor for values near zero, so
// that it fits the quantity: 0.03 for a weight of 0.029 is right, 0 for it is wrong (it is
// the misconception that the key gets no weight at all), and 0.39 for 0.401 is right.

const TOLERANCE = Object.freeze({
  rightRelative: 0.03, rightFloor: 0.0005,
  closeRelative: 0.15, closeFloor: 0.002,
});

/** The rule in words, for the note beside each form. */
export const GRADING_RULE = 'Right means within 3% of the core\u2019s value (plus 0.0005, for values near zero); '
  + 'close means within 15% (plus 0.002). A check that is not all right lets you try again before you ask for the answer.';

/** 'none' (nothing typed), 'right', 'close' or 'wrong'; `exact` for shapes and counts. */
export function grade(guess, truth, { exact = false } = {}) {
  if (guess === null || guess === undefined) return 'none';
  const error = Math.abs(guess - truth);
  if (exact) return error < 1e-9 ? 'right' : 'wrong';
  const size = Math.abs(truth);
  if (error <= TOLERANCE.rightRelative * size + TOLERANCE.rightFloor) return 'right';
  if (error <= TOLERANCE.closeRelative * size + TOLERANCE.closeFloor) return 'close';
  return 'wrong';
}

/** "too high" or "too low": a hint that does not give the answer away. */
export function direction(guess, truth) {
  return guess > truth ? 'too high' : 'too low';
}
