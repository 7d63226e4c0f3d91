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
// both ways. Setting an attribute (setAttribute('tau', '2'), a framework's binding) changes
// the figure; a learner's change is written back to the attributes and announced with an
// `attention-figure:change` event. Changing `name` (or setting it late, as frameworks do)
// mounts that figure afresh. Besides the settings it reads theme, page, toolbar, notes, layout and
// padding (lib/state/presentation.js). Properties: name, theme, page (reflect their
// attributes), settings (the current settings; assigning an object sets those attributes),
// ready (a promise of the mounted figure's element, or null when there is no such figure).
//
// Nothing outlives the element's stay in the page: when it leaves, its figure is disposed
// (training, timing, timers, observers and listeners end, and its elements go); put back, it
// mounts again from its attributes, which hold the settings. Moved (taken out and put back
// in the same task, as frameworks move nodes), it keeps its figure as it is.

import { createAttentionLab } from '#attention-lab';
import createModule from 'attention-lab:single-file-core';
import FIGURE_MARKUP from 'attention-lab:figure-markup';
import STYLES from 'attention-lab:shadow-styles';
import { prefixedSearch, unprefixedPairs } from './lib/state/embed-keys.js';
import { PRESENTATION_KEYS, applyPresentation, readPresentation } from './lib/state/presentation.js';
import { createStore } from './lib/state/store.js';
import { figureSettings } from './lib/share/links.js';
import { htmlElement } from './lib/dom/elements.js';
import { keepOwnKeys } from './lib/dom/own-keys.js';
import { createLifetime, trainingSessionsAlive } from './lib/dom/lifetime.js';
import { mountFigure, noticeBoard } from './mount-figure.js';

const ASKED_BY = 'This element';
const script = document.currentScript;
// This script's own text when it is inline (the one-file download, lib/export/standalone.js),
// so that copy can download itself again; otherwise it is fetched from its address.
const INLINE_SOURCE = script && !script.src ? script.textContent : null;
const SCRIPT_URL = script?.src ? new URL(script.src) : null;
const isWeb = (url) => url?.protocol === 'https:' || url?.protocol === 'http:';

/**
 * Where the full page lives when an element names no `page`: the script tag's data-page, or
 * index.html beside this script when it was loaded over http(s) (dist/ keeps them together).
 * A copy opened from file:// or inlined into a page knows no page: null.
 */
function defaultPage() {
  if (script?.dataset.page) {
    try {
      const url = new URL(script.dataset.page, document.baseURI);
      if (isWeb(url)) return url;
    } catch { /* fall through */ }
  }
  return isWeb(SCRIPT_URL) ? new URL('index.html', SCRIPT_URL) : null;
}
const DEFAULT_PAGE = defaultPage();

// Attributes every HTML element may carry: never read as settings of the figure.
const GLOBAL_ATTRIBUTE = /^(name|figure|id|class|style|title|lang|dir|hidden|inert|slot|part|tabindex|role|is|autofocus|nonce|popover|translate|draggable|spellcheck|contenteditable|enterkeyhint|inputmode|exportparts|data-.*|aria-.*|on.*)$/;
const isSettingAttribute = (name) => !GLOBAL_ATTRIBUTE.test(name) && !PRESENTATION_KEYS.includes(name);

let labPromise = null;
let sheet = null;
const live = new Set(); // connected elements, re-themed when the host page's scheme may have changed

function sharedSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
  }
  return sheet;
}

// A host page switching its own theme usually flips a class or attribute on <html> or <body>
// (and with it the color-scheme the elements inherit): look again then.
let hostWatch = null;
function watchHostScheme() {
  if (hostWatch) return;
  hostWatch = new MutationObserver(() => live.forEach((element) => element.refreshTheme()));
  const options = { attributes: true, attributeFilter: ['class', 'style', 'data-theme', 'data-color-scheme', 'data-mode'] };
  hostWatch.observe(document.documentElement, options);
  if (document.body) hostWatch.observe(document.body, options);
}

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
  #showNotice = () => {};
  #mounted = null; // { name, state, figure, done, lifetime, applied } of the figure shown now
  #ready = null; // { promise, resolve } handed out while no figure is mounted yet
  #noticed = new Set(); // unknown attributes already noted
  #presentation = null;
  #observer = null;
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
    live.add(this);
    watchHostScheme();
    this.#readPresentation(null);
    if (!this.#mounted || this.#mounted.name !== this.name) this.#queueMount();
    else this.#syncSettings(); // attributes may have changed while it was away
  }

  disconnectedCallback() {
    this.#observer.disconnect();
    live.delete(this);
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
    this.#showNotice = () => {};
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
    if ([...changed].some(isSettingAttribute)) this.#syncSettings();
  }

  /** Reads theme, page, toolbar, notes, padding, layout; notes bad values of the attributes in `changed` (all when null). */
  #readPresentation(changed) {
    const notice = (message) => {
      const name = /asked for (\w+) =/.exec(message)?.[1];
      if (!changed || changed.has(name)) this.#showNotice(message);
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

  #mount() {
    const name = this.name;
    this.#unmount(); // the figure shown before (another name) ends first
    this.#frame.replaceChildren();
    this.#noticed.clear();
    delete this.dataset.labReady;
    const notices = htmlElement('ul', { class: 'notices', role: 'status', 'aria-label': 'Notes about the settings', hidden: '' }, null, this.#frame);
    this.#showNotice = noticeBoard(notices);
    this.#readPresentation(null); // its notices belong on the new board

    const initial = this.#settingAttributes(name);
    initial.forEach(([attribute]) => this.#noticed.add(attribute)); // mountFigure notes the unknown ones
    const state = createStore({
      search: prefixedSearch(name, initial),
      writeSearch: (search) => this.#reflect(mounted, search),
      onNotice: this.#showNotice,
      askedBy: ASKED_BY,
      paramLabel: (param) => param.slice(name.length + 1),
    });
    const lifetime = createLifetime(); // what this figure starts ends with it (#unmount)
    // The attribute values last handed to the store, by name, so that a bad value is noted
    // once, not again on every later change of another attribute.
    const mounted = { name, state, figure: null, done: false, lifetime, applied: new Map(initial) };
    this.#mounted = mounted;
    labPromise ??= createAttentionLab(createModule);
    mountFigure(this.#frame, name, {
      lab: labPromise,
      state,
      links: {
        // A function: the page attribute may change after the toolbar was made.
        pageUrl: () => this.#presentation?.page ?? DEFAULT_PAGE,
        settingName: (param) => param.slice(name.length + 1),
        standalone: () => this.#standaloneSource(),
      },
      notice: this.#showNotice,
      askedBy: ASKED_BY,
      markup: FIGURE_MARKUP,
      lifetime,
      timeline: false, // elements come and go: their marks would pile up in the timeline
    }).then((figure) => {
      if (this.#mounted !== mounted) return figure; // a newer name took over, or it left the page
      mounted.figure = figure;
      mounted.done = true;
      if (figure) this.#syncSettings(); // attributes set while the core was starting
      this.dataset.labReady = 'true';
      if (!this.#mountQueued) {
        this.#ready?.resolve(figure);
        this.#ready = null;
      }
      this.dispatchEvent(new CustomEvent('attention-figure:ready', { bubbles: true, composed: true, detail: { name, found: figure !== null } }));
      return figure;
    });
  }

  /** The roles figure's old role="cross" (before it was named kind), or null. */
  #oldRole(name) {
    const role = this.getAttribute('role');
    return name === 'roles' && !this.hasAttribute('kind') && /^(encoder|decoder|cross)$/.test(role ?? '') ? role : null;
  }

  /** [name, value] of the attributes that are settings (the old role="…" of roles as kind). */
  #settingAttributes(name) {
    const pairs = [...this.attributes].filter((a) => isSettingAttribute(a.name)).map((a) => [a.name, a.value]);
    const role = this.#oldRole(name);
    if (role) {
      this.#showNotice(`role="${role}" is read as kind="${role}", but role is an ARIA attribute of the host page: write kind="${role}" instead.`);
      pairs.push(['kind', role]);
    }
    return pairs;
  }

  /** A learner's change: the settings back into the attributes, then the change event. */
  #reflect(mounted, search) {
    if (this.#mounted !== mounted) return;
    const { name, state } = mounted;
    const current = new Map(unprefixedPairs(name, search));
    for (const key of state.keysOf(name)) {
      const short = state.paramOf(key).slice(name.length + 1);
      const value = current.get(short) ?? null;
      mounted.applied.set(short, value);
      if (value !== null) this.setAttribute(short, value);
      else this.removeAttribute(short); // back at its default
    }
    this.dispatchEvent(new CustomEvent('attention-figure:change', {
      bubbles: true, composed: true, detail: { name, settings: figureSettings(state, name) },
    }));
  }

  /** The attributes into the figure: changed settings are set (with notices), unknown ones noted once. */
  #syncSettings() {
    const mounted = this.#mounted;
    if (!mounted?.figure) return; // its keys are defined once the figure has mounted
    const { name, state, applied } = mounted;
    const byParam = new Map(state.keysOf(name).map((key) => [state.paramOf(key).slice(name.length + 1), key]));
    const entries = [];
    for (const [param, key] of byParam) {
      const raw = this.getAttribute(param) ?? (param === 'kind' ? this.#oldRole(name) : null);
      if (raw === (applied.get(param) ?? null)) continue;
      applied.set(param, raw);
      const wanted = raw ?? state.defaultOf(key);
      if (String(wanted) !== String(state.get(key))) entries.push([key, wanted]);
    }
    if (entries.length) state.setMany(entries, { origin: ASKED_BY });
    const unknown = [...this.attributes].map((a) => a.name)
      .filter((attribute) => isSettingAttribute(attribute) && !byParam.has(attribute) && !this.#noticed.has(attribute));
    if (unknown.length) {
      unknown.forEach((attribute) => this.#noticed.add(attribute));
      const what = unknown.length === 1 ? 'a setting this figure does not have' : 'settings this figure does not have';
      this.#showNotice(`${ASKED_BY} names ${what} (${unknown.join(', ')}); ignored.`);
    }
  }

  /** This script's text, for the one-file download. */
  async #standaloneSource() {
    if (INLINE_SOURCE) return INLINE_SOURCE;
    if (!SCRIPT_URL) throw new Error('this copy of attention-figure.js has no address to read it from');
    const response = await fetch(SCRIPT_URL);
    if (!response.ok) throw new Error(`attention-figure.js answered ${response.status}`);
    return response.text();
  }
}

if (!customElements.get('attention-figure')) customElements.define('attention-figure', AttentionFigure);
