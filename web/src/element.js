// Entry point of attention-figure.js, the drop-in script for pages that can run scripts:
//   <script src="attention-figure.js"></script>
//   <attention-figure name="temperature" query="7" tau="0.5"></attention-figure>
// One classic script holds everything: the figures, their styles and the WebAssembly core
// (inlined as base64), so it also works from file:// and from hosts that cannot serve
// application/wasm. Each element draws its figure in a shadow root, so the host's styles and
// ours do not leak into each other; the host restyles it through the --al-* custom properties,
// which cross the shadow boundary. Mounting itself is mount-figure.js's job.
//
// The element is live: its attributes are the figure's settings, and it keeps them in step
// both ways (element/attributes.js). Setting an attribute (setAttribute('tau', '2'), a
// framework's binding) changes the figure; a learner's change is written back to the
// attributes; either is announced with an `attention-figure:change` event whose detail.source
// says which ('learner' or 'host'); nothing is announced while the figure loads. Changing
// `name` (or setting it late, as frameworks do) mounts that figure afresh. Besides the
// settings it reads theme, page, toolbar, notes, layout and padding (lib/state/presentation.js).
// Properties: name, theme, page (reflect their attributes), settings (the current settings;
// assigning an object sets those attributes), ready (a promise of the mounted figure's
// element, or null when there is no such figure).
//
// Nothing outlives the element's stay in the page: when it leaves, its figure is disposed
// (training, timing, timers, observers and listeners end, and its elements go); put back, it
// mounts again from its attributes, which hold the settings. Moved (taken out and put back
// in the same task, as frameworks move nodes), it keeps its figure as it is.

import { createAttentionLab } from '#attention-lab';
import createModule from 'attention-lab:single-file-core';
import FIGURE_MARKUP from 'attention-lab:figure-markup';
import { prefixedSearch } from './lib/state/embed-keys.js';
import { PRESENTATION_KEYS, applyPresentation, readPresentation } from './lib/state/presentation.js';
import { createStore } from './lib/state/store.js';
import { figureSettings } from './lib/share/links.js';
import { htmlElement } from './lib/dom/elements.js';
import { keepOwnKeys } from './lib/dom/own-keys.js';
import { createLifetime, trainingSessionsAlive } from './lib/dom/lifetime.js';
import { mountFigure, noticeBoard } from './mount-figure.js';
import {
  ASKED_BY, isSettingAttribute, noteKey, reflectChange, settingAttributes, settle, syncSettings,
} from './element/attributes.js';
import { DEFAULT_PAGE, SCRIPT_FOLDER, followHostScheme, sharedSheet, standaloneSource } from './element/host.js';

let labPromise = null;
const NO_NOTES = Object.assign(() => {}, { clear: () => {} });

class AttentionFigure extends HTMLElement {
  /**
   * For leak tests and the console: the WebAssembly module's memoryStats() (heap, stack
   * pointer, Embind handles) and the training sessions alive, or null before the core started.
   */
  static async memoryStats() {
    if (!labPromise) return null;
    const lab = await labPromise;
    return { ...lab.memoryStats(), trainingSessions: trainingSessionsAlive() };
  }

  #frame = null;
  #note = NO_NOTES; // note(message) shows a note keyed by what it is about; note.clear(key)
  // The figure shown now: { name, state, figure, done, lifetime, applied (attribute values last
  // handed to the store), seen (the settings' text last announced), unknown (attributes noted) }
  #mounted = null;
  #ready = null; // { promise, resolve } handed out while no figure is mounted yet
  #presentation = null;
  #observer = null;
  #unfollow = () => {};
  #mountQueued = false;

  get name() { return this.getAttribute('name') ?? ''; }
  set name(value) { this.setAttribute('name', value); }
  get theme() { return this.#presentation?.theme ?? 'auto'; }
  set theme(value) { this.setAttribute('theme', value); }
  get page() { return (this.#presentation?.page ?? DEFAULT_PAGE)?.href ?? ''; }
  set page(value) { this.setAttribute('page', value); }
  /**
   * The mounted figure's element; while none is mounted yet (not yet in the page, a mount
   * queued or the core still starting), a promise of the next one. null: no such figure.
   */
  get ready() {
    const mounted = this.#mounted;
    if (mounted?.done && !this.#mountQueued) return Promise.resolve(mounted.figure);
    if (!this.#ready) {
      let resolve;
      const promise = new Promise((done) => { resolve = done; });
      this.#ready = { promise, resolve };
    }
    return this.#ready.promise;
  }

  /** The figure's current settings, by their attribute names ({} until it has mounted). */
  get settings() {
    const mounted = this.#mounted;
    return mounted?.figure ? figureSettings(mounted.state, mounted.name) : {};
  }

  set settings(values) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (!isSettingAttribute(name)) continue;
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    }
  }

  connectedCallback() {
    if (!this.#frame) {
      const shadow = this.attachShadow({ mode: 'open' });
      shadow.adoptedStyleSheets = [sharedSheet()];
      // The frame carries the theme and the hidden parts (data-al-*), so that they win over
      // whatever the host sets on the element itself.
      this.#frame = htmlElement('div', { class: 'al-frame' }, null, shadow);
      keepOwnKeys(shadow); // lives as long as the shadow root: nothing to undo on removal
      this.#observer = new MutationObserver((records) => this.#attributesChanged(records));
    }
    this.#observer.observe(this, { attributes: true, attributeOldValue: true });
    this.#unfollow = followHostScheme(this);
    this.#readPresentation(null);
    if (!this.#mounted || this.#mounted.name !== this.name) this.#queueMount();
    else syncSettings(this, this.#mounted, this.#note); // attributes may have changed while it was away
  }

  disconnectedCallback() {
    this.#observer.disconnect();
    this.#unfollow();
    // Still out once the current task's script is done: it has left the page, not moved.
    queueMicrotask(() => {
      if (!this.isConnected) this.#unmount();
    });
  }

  /** Disposes of the figure shown now: whatever it runs stops, and its elements go. */
  #unmount() {
    const mounted = this.#mounted;
    if (!mounted) return;
    this.#mounted = null;
    mounted.lifetime.dispose();
    this.#frame.replaceChildren();
    this.#note = NO_NOTES;
    delete this.dataset.labReady;
  }

  /** Looks again at the host's color-scheme (theme="auto" follows it). */
  refreshTheme() {
    if (this.#presentation) applyPresentation(this.#frame, this.#presentation, { inheritScheme: true });
  }

  #attributesChanged(records) {
    const changed = new Set(records.map((record) => record.attributeName));
    if (changed.has('name') && this.#mounted?.name !== this.name) {
      this.#queueMount();
      return;
    }
    if (PRESENTATION_KEYS.some((key) => changed.has(key))) this.#readPresentation(changed);
    if ([...changed].some(isSettingAttribute)) syncSettings(this, this.#mounted, this.#note);
  }

  /** Reads theme, page, toolbar, notes, padding, layout; notes bad values of the attributes in `changed` (all when null). */
  #readPresentation(changed) {
    changed?.forEach((name) => this.#note.clear(name)); // fixed, or noted again below
    const notice = (message) => {
      if (!changed || noteKey(message)?.some((name) => changed.has(name))) this.#note(message);
    };
    this.#presentation = readPresentation((name) => this.getAttribute(name), { askedBy: ASKED_BY, notice, base: document.baseURI });
    this.refreshTheme();
  }

  // Frameworks often create the element, insert it and only then set its attributes: wait for
  // the current script to finish before mounting, so the figure starts with all of them.
  #queueMount() {
    if (this.#mountQueued) return;
    this.#mountQueued = true;
    queueMicrotask(() => {
      this.#mountQueued = false;
      if (this.isConnected) this.#mount();
    });
  }

  /** A fresh notes list; each note is keyed by the attribute it is about (element/attributes.js). */
  #newNotes() {
    const list = htmlElement('ul', { class: 'notices', role: 'status', 'aria-label': 'Notes about the settings', hidden: '' }, null, this.#frame);
    const board = noticeBoard(list);
    this.#note = Object.assign((message) => board(message, noteKey(message)), { clear: board.clear });
  }

  #mount() {
    const name = this.name;
    this.#unmount(); // the figure shown before (another name) ends first
    this.#frame.replaceChildren();
    delete this.dataset.labReady;
    this.#newNotes();
    this.#readPresentation(null); // its notices belong on the new board

    const initial = settingAttributes(this, name, this.#note);
    const state = createStore({
      search: prefixedSearch(name, initial),
      writeSearch: (searchNow, change) => this.#announce(mounted, change),
      onNotice: this.#note,
      askedBy: ASKED_BY,
      paramLabel: (param) => (param.startsWith(`${name}.`) ? param.slice(name.length + 1) : param),
    });
    const lifetime = createLifetime(); // what this figure starts ends with it (#unmount)
    const mounted = {
      name, state, figure: null, done: false, lifetime, applied: new Map(initial), seen: new Map(), unknown: '',
    };
    this.#mounted = mounted;
    labPromise ??= createAttentionLab(createModule);
    mountFigure(this.#frame, name, {
      lab: labPromise,
      state,
      links: {
        // A function: the page attribute may change after the toolbar was made.
        pageUrl: () => this.#presentation?.page ?? DEFAULT_PAGE,
        settingName: (param) => (param.startsWith(`${name}.`) ? param.slice(name.length + 1) : param),
        standalone: standaloneSource,
        filesBase: SCRIPT_FOLDER,
      },
      notice: this.#note,
      askedBy: ASKED_BY,
      markup: FIGURE_MARKUP,
      lifetime,
      timeline: false, // elements come and go: their marks would pile up in the timeline
    }).then((figure) => (this.#mounted === mounted ? this.#settled(mounted, figure) : figure));
  }

  /** The figure has mounted (or shows why not): ready resolves and the event fires. */
  #settled(mounted, figure) {
    mounted.figure = figure;
    if (figure) settle(this, mounted, this.#note);
    mounted.done = true;
    this.dataset.labReady = 'true';
    if (!this.#mountQueued) {
      this.#ready?.resolve(figure);
      this.#ready = null;
    }
    const { name } = mounted;
    this.dispatchEvent(new CustomEvent('attention-figure:ready', { bubbles: true, composed: true, detail: { name, found: figure !== null } }));
    return figure;
  }

  /** The store wrote a change: the learner's go into the attributes, and the change is announced. */
  #announce(mounted, change) {
    if (this.#mounted !== mounted) return;
    const detail = reflectChange(this, mounted, change, this.#note);
    if (detail) this.dispatchEvent(new CustomEvent('attention-figure:change', { bubbles: true, composed: true, detail }));
  }
}

if (!customElements.get('attention-figure')) customElements.define('attention-figure', AttentionFigure);
