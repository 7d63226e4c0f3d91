// The measured figure's controls: Run (Stop while a run goes on), the three settings a run is
// made at (held while it runs), and the progress line with its status.

import { createPicker } from '../../lib/controls/picker.js';
import { htmlElement, uniqueId } from '../../lib/dom/elements.js';
import { formatCount } from '../../lib/format/index.js';
import { LARGEST_CHOICES } from './plan.js';

export const WIDTHS = ['16', '32', '64', '128'];
export const PRECISIONS = [
  { value: 'float32', text: 'float32' },
  { value: 'float64', text: 'float64' },
];

/**
 * @returns {{ runButton: HTMLButtonElement, progress: HTMLProgressElement, status: HTMLElement,
 *   setRunning(running: boolean): void, show(key: string, value: string): void }}
 */
export function createMeasuredControls(body, { state }) {
  const controls = htmlElement('div', { class: 'figure-controls measured-controls' }, null, body);
  const actions = htmlElement('div', { class: 'measured-actions' }, null, controls);
  const runButton = htmlElement('button', { type: 'button', class: 'measured-button measured-primary' }, 'Run', actions);
  const picker = (key, label, options, hint) => createPicker(controls, {
    label, options, hint, value: state.get(key), onChange: (value) => state.set(key, value),
  });
  const pickers = {
    'measured.d': picker('measured.d', 'width d', WIDTHS.map((v) => ({ value: v, text: v })), 'of queries, keys and values'),
    'measured.precision': picker('measured.precision', 'precision', PRECISIONS, 'float32: WebAssembly SIMD, as models run'),
    'measured.nmax': picker('measured.nmax', 'largest n', LARGEST_CHOICES.map((n) => ({ value: String(n), text: formatCount(n) })),
      'the sizes double from n = 8'),
  };

  const progressLine = htmlElement('div', { class: 'measured-progress' }, null, body);
  const progressId = uniqueId('progress');
  htmlElement('label', { for: progressId, class: 'measured-progress-label' }, 'progress', progressLine);
  const progress = htmlElement('progress', { id: progressId, max: '1', value: '0' }, null, progressLine);
  const status = htmlElement('p', { class: 'measured-status', role: 'status', 'aria-live': 'polite' }, null, progressLine);

  return {
    runButton,
    progress,
    status,
    setRunning(running) {
      runButton.textContent = running ? 'Stop' : 'Run';
      runButton.setAttribute('aria-label', running ? 'Stop measuring' : 'Run the measurement');
      for (const p of Object.values(pickers)) p.select.disabled = running;
    },
    /** Shows a setting's value from elsewhere (a link, an element's attribute). */
    show(key, value) {
      pickers[key].set(value);
    },
  };
}
