// Entry point of attention-figure.js, the drop-in script for pages that can run scripts:
//   <script src="attention-figure.js"></script>
//   <attention-figure name="temperature" query="7" tau="0.5"></attention-figure>
// One classic script holds everything: the figures, their styles and the WebAssembly core
// (inlined as base64), so it also works from file:// and from hosts that cannot serve
// application/wasm. Each element draws its figure in a shadow root, so the host's styles and
// ours do not leak into each other; the host restyles it through the --al-* custom properties,
// which cross the shadow boundary. Settings the learner changes are reflected back into the
// element's attributes. Mounting itself is mount-figure.js's job.

import { createAttentionLab } from '#attention-lab';
import createModule from 'attention-lab:single-file-core';
import FIGURE_MARKUP from 'attention-lab:figure-markup';
import STYLES from 'attention-lab:shadow-styles';
import { prefixedSearch, unprefixedPairs } from './lib/state/embed-keys.js';
import { createStore } from './lib/state/store.js';
import { htmlElement } from './lib/dom/elements.js';
import { mountFigure, noticeBoard } from './mount-figure.js';

// Where this script was loaded from: the base of the links and embed code the toolbar offers.
const scriptBase = new URL('./', document.currentScript?.src ?? location.href);
// Attributes every HTML element may carry: never read as settings of the figure.
const GLOBAL_ATTRIBUTE = /^(name|figure|id|class|style|title|lang|dir|hidden|slot|part|tabindex|role|is|data-.*|aria-.*)$/;
let labPromise = null;
let sheet = null;

function sharedSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
  }
  return sheet;
}

class AttentionFigure extends HTMLElement {
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.#start();
  }

  async #start() {
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [sharedSheet()];
    const notices = htmlElement('ul', { class: 'notices', role: 'status', 'aria-label': 'Notes about the settings', hidden: '' }, null, shadow);
    const showNotice = noticeBoard(notices);
    const name = this.getAttribute('name') ?? '';

    // The element's attributes are the figure's settings, without the figure prefix the store uses.
    const attributes = [...this.attributes].map((a) => [a.name, a.value]).filter(([n]) => !GLOBAL_ATTRIBUTE.test(n));
    const state = createStore({
      search: prefixedSearch(name, attributes),
      writeSearch: (search) => {
        const current = new Map(unprefixedPairs(name, search));
        for (const key of state.keysOf(name)) {
          const short = key.slice(name.length + 1);
          if (current.has(short)) this.setAttribute(short, current.get(short));
          else this.removeAttribute(short); // back at its default
        }
      },
      onNotice: showNotice,
    });
    labPromise ??= createAttentionLab(createModule);
    await mountFigure(shadow, name, {
      lab: labPromise,
      state,
      links: { embedBase: scriptBase, pageUrl: new URL('index.html', scriptBase), settingName: (param) => param.slice(name.length + 1) },
      notice: showNotice,
      markup: FIGURE_MARKUP,
    });
    this.dataset.labReady = 'true';
    this.dispatchEvent(new CustomEvent('attention-figure:ready', { bubbles: true }));
  }
}

if (!customElements.get('attention-figure')) customElements.define('attention-figure', AttentionFigure);
