// Parts of a tall figure shown one at a time in the slide layout. A figure with more parts
// than one 1280×720 screen holds (learn's maps and its curves, why-scale's two parts, …) gets
// a small strip of tabs at its top; in the slide layout only the picked part is shown, so
// every part can be read from the back of a room without scrolling. In the page layout the
// strip is not shown and every part is (styles.css: .slide-steps, .slide-part).
//
// The strip is a tablist: the picked tab is the one tab stop, the arrow keys move between
// tabs (and pick them), Home and End go to the first and last.
//
//   addSlideSteps(figure, name)  ->  { pick(index), current } or null for a figure without parts

import { htmlElement, uniqueId } from './elements.js';
import './slide.css'; // the slide layout's shared rules, bundled into styles.css

// By figure: each part's tab label and the selector of its elements inside the figure. A part
// missing from a figure (another version's markup) is left out; with fewer than two parts
// found there is no strip.
export const SLIDE_PARTS = {
  lookup: [
    { label: 'Shapes', selector: '.lookup-part:nth-child(-n+2)' },
    { label: 'Scores', selector: '.lookup-part:nth-child(n+3)' },
  ],
  'by-hand': [
    { label: 'Vectors and steps', selector: '.by-hand-every-token-slot, .by-hand-panels' },
    { label: 'The code', selector: '.by-hand-code-box' },
    { label: 'Additive scoring', selector: '.by-hand-compare' },
  ],
  'all-at-once': [
    { label: 'Scores', selector: '.all-at-once-panels > .figure-panel:nth-child(1)' },
    { label: 'Weights', selector: '.all-at-once-panels > .figure-panel:nth-child(2)' },
    { label: 'Output', selector: '.all-at-once-output' },
  ],
  'why-scale': [
    { label: 'A: one wide score', selector: '.why-scale-part:nth-child(1)' },
    { label: 'B: random queries and keys', selector: '.why-scale-part:nth-child(2)' },
  ],
  learn: [
    { label: 'Weights', selector: '.learn-copies' },
    { label: 'Curves', selector: '.learn-plots, .learn-table' },
  ],
  heads: [
    { label: 'Heads', selector: '.heads-panels, .heads-checks' },
    { label: 'Parameters and the paper', selector: '.heads-count, .heads-paper' },
  ],
  cost: [
    { label: 'Compute and memory', selector: '.cost-presets, .cost-panels' },
    { label: 'Table 1', selector: '.cost-table-wrap' },
  ],
  'check-yourself': [1, 2, 3, 4, 5].map((n) => ({ label: `Question ${n}`, selector: `.check-yourself-item:nth-child(${n})` })),
  map: [
    { label: 'Heads 1 and 2', selector: '.map-head:nth-child(-n+2)' },
    { label: 'Heads 3 and 4', selector: '.map-head:nth-child(n+3)' },
  ],
};

/** Adds the strip to `figure` (a mounted figure of this name); null when it has no parts. */
export function addSlideSteps(figure, name, parts = SLIDE_PARTS[name]) {
  if (!parts) return null;
  const found = parts
    .map((part) => ({ ...part, elements: [...figure.querySelectorAll(part.selector)] }))
    .filter((part) => part.elements.length > 0);
  if (found.length < 2) return null;

  const strip = htmlElement('div', { class: 'slide-steps', role: 'tablist', 'aria-label': 'Parts of this figure' }, null);
  const anchor = figure.querySelector(':scope > .figure-body') ?? figure.firstElementChild;
  figure.insertBefore(strip, anchor);
  let current = 0;
  const tabs = found.map((part, index) => {
    for (const element of part.elements) {
      element.classList.add('slide-part');
      if (!element.id) element.id = uniqueId('slide-part');
    }
    const tab = htmlElement('button', {
      type: 'button', role: 'tab', class: 'slide-step', id: uniqueId('slide-step'),
      'aria-controls': part.elements.map((element) => element.id).join(' '),
    }, `${index + 1}. ${part.label}`, strip);
    tab.addEventListener('click', () => pick(index));
    tab.addEventListener('keydown', (event) => {
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      let target = null;
      if (moves[event.key]) target = (index + moves[event.key] + found.length) % found.length;
      if (event.key === 'Home') target = 0;
      if (event.key === 'End') target = found.length - 1;
      if (target === null) return;
      event.preventDefault();
      pick(target);
      tabs[target].focus();
    });
    return tab;
  });

  function pick(index) {
    current = index;
    tabs.forEach((tab, i) => {
      tab.setAttribute('aria-selected', String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
    });
    found.forEach((part, i) => part.elements.forEach((element) => element.classList.toggle('slide-part-current', i === index)));
  }
  pick(0);
  return {
    pick,
    get current() { return current; },
  };
}
