// A colour bar of the palette with its two ends labelled, under a heat map: which colour is 0
// and which is 1 (or the map's own domain). Drawn in SVG, so no inline style is needed under
// the CSP.

import { interpolateViridis } from 'd3-scale-chromatic';
import { formatFixed } from '../../format/index.js';
import { htmlElement, svgElement, uniqueId } from '../../dom/elements.js';

const LEGEND_STOPS = 11;

export function drawLegend(parent, title, [low, high]) {
  const legend = htmlElement('div', { class: 'heatmap-legend' }, null, parent);
  htmlElement('span', { class: 'heatmap-legend-title' }, title, legend);
  const whole = Number.isInteger(low) && Number.isInteger(high);
  const formatEnd = (v) => (whole ? String(v).replace('-', '\u2212') : formatFixed(v, 2));
  htmlElement('span', { class: 'heatmap-legend-end' }, formatEnd(low), legend);
  const bar = svgElement('svg', { viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'heatmap-legend-bar', 'aria-hidden': 'true' }, legend);
  const gradientId = uniqueId('heatmap-legend');
  const gradient = svgElement('linearGradient', { id: gradientId }, svgElement('defs', {}, bar));
  for (let i = 0; i < LEGEND_STOPS; i += 1) {
    const t = i / (LEGEND_STOPS - 1);
    svgElement('stop', { offset: `${t * 100}%`, 'stop-color': interpolateViridis(t) }, gradient);
  }
  svgElement('rect', { x: 0, y: 0, width: 100, height: 10, fill: `url(#${gradientId})` }, bar);
  htmlElement('span', { class: 'heatmap-legend-end' }, formatEnd(high), legend);
  legend.setAttribute('aria-label', `colour legend: ${title} from ${formatEnd(low)} (dark purple) to ${formatEnd(high)} (yellow)`);
  legend.setAttribute('role', 'note');
  return legend;
}
