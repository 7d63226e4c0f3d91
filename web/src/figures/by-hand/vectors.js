// The left half of the "by hand" figure: the query and keys on one plane, the values and
// the output on another, and a field for every component. Dragging a tip, pressing an arrow
// key on it or typing a component (fields.js) all set the store; render() draws what the store
// holds.

import { htmlElement, svgElement } from '../../lib/dom/elements.js';
import { formatFixed } from '../../lib/format/index.js';
import { createComponentFields } from './fields.js';
import { KEY_IDS, VALUE_IDS, VECTORS, fitWindow, vectorKey } from './model.js';
import { createArrow, createPlane, declutter } from './plane.js';

/**
 * Builds the panel into `parent`. onRelease() runs when a dragged tip is let go (the planes
 * refit then). Returns { renderFields(), renderPlanes(vectors, result, covered) }.
 */
export function createVectorsPanel(parent, { state, onRelease }) {
  const left = htmlElement('div', { class: 'figure-panel by-hand-vectors' }, null, parent);
  const planes = htmlElement('div', { class: 'by-hand-planes' }, null, left);
  const keyPlane = createPlane(planes, { title: 'Query and keys: they set the weights', label: 'query and keys' });
  const valuePlane = createPlane(planes, { title: 'Values and output: the blend', label: 'values and output' });

  const setVector = (id, [x, y]) => state.setMany([[vectorKey(id, 'x'), x], [vectorKey(id, 'y'), y]]);
  const arrows = {};
  // Values first, then keys, then the query, so the query's tip is on top where tips meet;
  // the query's thick shaft goes under the keys, so q = k1 (the default) still shows k1.
  for (const id of [...VALUE_IDS, ...KEY_IDS, 'q']) {
    const vector = VECTORS.find((v) => v.id === id);
    const plane = vector.kind === 'value' ? valuePlane : keyPlane;
    arrows[id] = createArrow(plane, {
      name: id, kind: vector.kind, onMove: (xy) => setVector(id, xy), onRelease, under: id === 'q',
    });
  }
  const outputDot = svgElement('circle', { r: 6.5, class: 'by-hand-output' }, valuePlane.marks);
  const outputLabel = svgElement('text', { class: 'by-hand-output-label', 'text-anchor': 'start' }, valuePlane.marks);
  const weightLabels = VALUE_IDS.map(() => svgElement('text', { class: 'by-hand-weight-label', 'text-anchor': 'middle' }, valuePlane.marks));

  const { renderFields } = createComponentFields(left, { state, keyPlane, valuePlane });

  function renderPlanes(vectors, { weights, output }, covered) {
    // Each plane fits its own vectors (a long query does not shrink the values), refitted
    // unless a tip is being dragged.
    if (!Object.values(arrows).some((arrow) => arrow.dragging)) {
      keyPlane.setWindow(fitWindow(['q', ...KEY_IDS].map((id) => vectors[id])));
      valuePlane.setWindow(fitWindow([...VALUE_IDS.map((id) => vectors[id]), Array.from(output)]));
    }
    for (const vector of VECTORS) arrows[vector.id].set(vectors[vector.id]);
    VALUE_IDS.forEach((id, j) => {
      // Heavier values are drawn thicker, once the weights may be shown.
      arrows[id].setWidth(covered(3) ? 2.5 : 1.5 + 6 * weights[j]);
      const [x, y] = arrows[id].noteAt();
      weightLabels[j].setAttribute('x', x);
      weightLabels[j].setAttribute('y', y);
      weightLabels[j].textContent = covered(3) ? '' : `a ${formatFixed(weights[j], 2)}`;
    });
    const hideOutput = covered(4);
    outputDot.setAttribute('visibility', hideOutput ? 'hidden' : 'visible');
    outputLabel.setAttribute('visibility', hideOutput ? 'hidden' : 'visible');
    outputDot.setAttribute('cx', valuePlane.toX(output[0]));
    outputDot.setAttribute('cy', valuePlane.toY(output[1]));
    outputLabel.setAttribute('x', valuePlane.toX(output[0]) + 4 + 4 * valuePlane.text);
    outputLabel.setAttribute('y', valuePlane.toY(output[1]) + 7 + 9 * valuePlane.text);
    outputLabel.textContent = 'o';
    // Names, weights and the output's label never pile up (q = [−4, 4] sends them all to v2).
    const dot = { x: valuePlane.toX(output[0]) - 7, y: valuePlane.toY(output[1]) - 7, width: 14, height: 14 };
    declutter([...VALUE_IDS.map((id) => arrows[id].label), ...weightLabels, ...(hideOutput ? [] : [outputLabel])],
      hideOutput ? [] : [dot], valuePlane.text);
    declutter(['q', ...KEY_IDS].map((id) => arrows[id].label), [], keyPlane.text);
    last = [vectors, { weights, output }, covered];
  }
  // The last drawing, drawn again when a plane's scale or the reader's text size changes.
  let last = null;
  keyPlane.onRefit = valuePlane.onRefit = () => { if (last) renderPlanes(...last); };

  return {
    renderFields,
    /** Draws the vectors, and the weights and output of `result` unless covered(step) says not yet. */
    renderPlanes,
  };
}
