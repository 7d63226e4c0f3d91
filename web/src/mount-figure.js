// The one way a figure is mounted, shared by the page (main.js), the iframe embed (embed.js)
// and the <attention-figure> element (element.js). The entry points differ only in where the
// figure's settings live (the page's URL, the embed's URL, the element's attributes), which
// they express by the store they create, and in where the figure is shown. Everything else
// happens here, so a figure behaves the same in all three: the name check, the markup, the
// status line while the core starts, the error paragraph, the settings' fit rule, the
// unknown-settings notice, the toolbar, and the figure's lifetime: what the figure starts
// (listeners, observers, timers, frames, Workers, training sessions, subscriptions) ends when
// the caller disposes of that lifetime (the element does when it leaves the page).

import { FIGURES } from './figures/index.js';
import { releaseCharts } from './lib/charts/fit.js';
import { createLifetime, scopedLab, scopedStore } from './lib/dom/lifetime.js';
import { releaseScrollRegions } from './lib/dom/scroll-region.js';
import { addSlideSteps } from './lib/dom/slide-steps.js';
import { addFigureToolbar } from './lib/share/toolbar.js';
import { FEATURES_KEY, SENTENCE_FIGURES, SENTENCE_KEY, defineSentence, isLesson, sentenceFrom, tagSentence, tagged } from './lib/sentence/current.js';
import { LESSON_SENTENCE } from './lib/sentence/tokenize.js';

const MAX_NAMES_LISTED = 5;
const MAX_NAME_LENGTH = 40;

const clip = (text) => (text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH)}\u2026` : text);

/**
 * A notice list (<ul class="notices">): returns show(message, about), which adds one plain-text
 * item, and show.clear(name), which removes the items about `name` once it has been fixed
 * (and returns the names they were about).
 * `about` names what a note speaks of (an attribute, a setting), one name or several (a note
 * that two settings do not fit goes when either changes). A note shown again about the same
 * thing replaces the one before, at the end. A list left empty is hidden.
 */
export function noticeBoard(list) {
  const about = (item) => (item.dataset.about ?? '').split(' ').filter(Boolean);
  const items = (name) => [...list.children].filter((item) => about(item).includes(name));
  const show = (message, names = null) => {
    const keys = names === null ? [] : [names].flat();
    const item = document.createElement('li');
    item.textContent = message;
    if (keys.length) {
      item.dataset.about = keys.join(' ');
      [...list.children].find((old) => old.dataset.about === item.dataset.about && old.textContent === message)?.remove();
    }
    list.appendChild(item);
    list.hidden = false;
  };
  // Returns every name the removed notes were about (name itself, and the others a note named).
  show.clear = (name) => {
    const names = new Set();
    for (const item of items(name)) {
      about(item).forEach((each) => names.add(each));
      item.remove();
    }
    list.hidden = list.children.length === 0;
    return names;
  };
  return show;
}

/**
 * The status line at the top of a figure (or at the end of `place` when there is no figure):
 * a polite status while the core starts, an alert when something failed.
 */
function setStatus(place, text, isError = false) {
  let status = [...place.children].find((child) => child.classList.contains('figure-status'));
  if (!status) {
    status = document.createElement('p');
    status.className = 'figure-status';
    if (place.matches?.('[data-figure]')) place.insertBefore(status, place.firstChild);
    else place.appendChild(status);
  }
  status.textContent = text;
  status.classList.toggle('figure-status-error', isError);
  status.setAttribute('role', isError ? 'alert' : 'status');
  return status;
}

// When the core cannot start, every figure on the page fails at once: only the first says so
// aloud (role=alert); the others show the same sentence quietly.
let startFailureAnnounced = false;

/** The reason the core could not start, in a reader's words rather than the loader's. */
function plainStartReason(error) {
  const text = `${error?.name ?? ''} ${error?.message ?? ''}`;
  // A Content-Security-Policy refusal is a CompileError too, but it names the policy.
  if (/Content.Security|wasm-unsafe-eval|unsafe-eval|Refused to (compile|instantiate)/i.test(text)) {
    return 'this page\u2019s security settings do not allow WebAssembly';
  }
  // Any other CompileError is the file itself: not WebAssembly (no magic number), cut short, corrupt.
  if (/CompileError|magic (word|number)|fell off|truncat|unexpected end|section/i.test(text)) {
    return 'its WebAssembly file is damaged or incomplete';
  }
  if (/fetch|404|network|Failed to load|NetworkError/i.test(text)) return 'its WebAssembly file could not be loaded';
  return 'this browser could not run its WebAssembly';
}

/** One plain sentence, a retry and (where known) a link to the full page, instead of loader text. */
function showStartFailure(figure, error, links) {
  const status = setStatus(figure, `The interactive part could not start: ${plainStartReason(error)}. `, true);
  if (startFailureAnnounced) status.removeAttribute('role');
  startFailureAnnounced = true;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'figure-retry';
  retry.textContent = 'Try again';
  retry.addEventListener('click', () => location.reload());
  status.appendChild(retry);
  let page = null;
  try {
    page = typeof links.pageUrl === 'function' ? links.pageUrl() : links.pageUrl;
  } catch { /* no page to point at */ }
  if (page && !String(page).startsWith('file:')) {
    status.append(' ');
    const link = document.createElement('a');
    link.href = String(page);
    link.textContent = 'Open the full page';
    status.appendChild(link);
  }
}

/** The polite status a figure shows until it is drawn (the page sets it on every figure at once). */
export function showStarting(figure) {
  setStatus(figure, 'Starting the WebAssembly core\u2026');
}

/**
 * Settings in the link that look like this figure's ("temperature.tua") but that it does not
 * have get one notice; anything else (a tracking parameter, another figure's name) is left alone.
 */
function noticeUnknownSettings(state, name, { notice, settingName, askedBy }) {
  const ours = state.unknownParams().filter((param) => param.startsWith(`${name}.`));
  if (!ours.length) return;
  const shown = ours.slice(0, MAX_NAMES_LISTED).map((param) => clip(settingName(param)));
  const more = ours.length > MAX_NAMES_LISTED ? ` and ${ours.length - MAX_NAMES_LISTED} more` : '';
  const what = ours.length === 1 ? 'a setting this figure does not have' : 'settings this figure does not have';
  notice(`${askedBy} names ${what} (${shown.join(', ')}${more}); ignored.`);
}

/** Where sentence-tagger.js is served: beside the figure's own files (the element's script), or the page. */
function sentenceBase(links) {
  for (const where of [links.filesBase, links.embedBase]) {
    try {
      const base = typeof where === 'function' ? where() : where;
      if (base) return new URL(base, document.baseURI).href;
    } catch { /* try the next */ }
  }
  return document.baseURI;
}

/**
 * Mounts a figure's body into `figure` with its own lifetime, and for a figure built on the toy
 * sentence, mounts it again whenever the page's sentence changes: its lab's toySentence() is
 * the current sentence (lib/sentence/current.js), tagged before it is drawn, so the last valid
 * sentence stays drawn until the new one is ready. Focus on the sentence field comes back to it.
 */
function mountFollowing(figure, name, { api, state, lifetime, links }) {
  let inner = null;
  let added = [];
  let generation = 0;
  let drawnText = null; // the sentence drawn last
  const follows = SENTENCE_FIGURES.includes(name);
  const mountOnce = (fresh = false) => {
    inner = createLifetime();
    lifetime.add(() => inner.dispose());
    const before = new Set(figure.childNodes);
    let lab = scopedLab(api, inner);
    if (follows) {
      const text = state.get(SENTENCE_KEY);
      const known = tagged(text) || isLesson(text);
      drawnText = text;
      const sentence = sentenceFrom(api, known ? text : LESSON_SENTENCE, known ? state.get(FEATURES_KEY) : '');
      // fresh: drawn for a sentence the learner just applied (its token settings start on its focus row).
      lab = Object.create(lab, { toySentence: { value: () => ({ ...sentence, fresh }) } });
    }
    // Drawn again, the figure finds its settings defined already: they keep their values.
    const figureState = Object.create(scopedStore(state, inner), {
      defineAll: {
        value: (settings) => {
          const defined = new Set(state.keysOf(''));
          if (Object.keys(settings).every((key) => defined.has(key))) return;
          state.defineAll(settings);
        },
      },
    });
    const dispose = FIGURES[name].mount(figure, { lab, state: figureState, lifetime: inner });
    if (typeof dispose === 'function') inner.add(dispose);
    added = [...figure.childNodes].filter((node) => !before.has(node));
  };
  return {
    start() {
      mountOnce();
      return true;
    },
    async redraw() {
      const text = state.get(SENTENCE_KEY);
      const mine = ++generation;
      if (!isLesson(text) && !tagged(text)) {
        try {
          await tagSentence(text, sentenceBase(links));
        } catch (error) {
          console.error(error);
          return; // the last sentence stays drawn; the field says why
        }
      }
      if (mine !== generation || lifetime.disposed) return;
      const active = figure.getRootNode().activeElement;
      const refocus = active && figure.contains(active) && active.matches('[data-sentence-field]');
      const marker = document.createComment('sentence');
      figure.insertBefore(marker, added.find((node) => node.parentNode === figure) ?? null);
      inner.dispose();
      added.forEach((node) => node.remove());
      mountOnce(text !== drawnText); // a feature switched keeps the figure's own settings
      added.forEach((node) => figure.insertBefore(node, marker));
      marker.remove();
      if (refocus) figure.querySelector('[data-sentence-field]')?.focus();
    },
  };
}

/**
 * Mounts figure `name`.
 * @param {Element|ShadowRoot} element  the page's <figure data-figure="name">, or the place
 *   (embed root, shadow root) that the figure is built into from `markup`
 * @param {string} name  the figure's name (FIGURES key)
 * @param {object} options
 * @param {Promise<object>|object} options.lab  the Attention Lab API, or a promise of it
 * @param {object} options.state  the store; its keys for this figure are `${name}.<setting>`
 * @param {object} [options.links]  for the toolbar and notices: pageUrl (the full page a copied
 *   link opens, a URL or a function returning one, null when unknown; default this page),
 *   embedBase (where embed.html and attention-figure.js are served; default the page's
 *   folder), settingName(param) (how a store parameter is spelled in this figure's link),
 *   standalone() (a promise of attention-figure.js's text, for the one-file download),
 *   filesBase (the folder this figure's own files are served from, for the LMS package;
 *   default this document's folder)
 * @param {(message: string) => void} [options.notice]  shows a notice about the settings
 * @param {string} [options.askedBy]  who set the settings, as notices name it ('The link',
 *   'This element')
 * @param {Record<string, string>} [options.markup]  each figure's HTML, by name (embeds only)
 * @param {object} [options.lifetime]  the figure's lifetime (lib/dom/lifetime.js): disposing of
 *   it ends everything the figure started; disposed before the core is ready, nothing mounts.
 *   The page and the iframe keep their figures for good and may leave it out.
 * @param {boolean} [options.timeline]  false: no performance marks for this figure. The browser
 *   keeps every mark until it is cleared, so figures that come and go (the element) leave none.
 * @returns {Promise<HTMLElement|null>}  the figure element (drawn, or showing why not), or null
 *   when there is no figure of that name
 */
export async function mountFigure(element, name, {
  lab, state, links = {}, notice = () => {}, askedBy = 'The link', markup = null, lifetime = createLifetime(), timeline = true,
}) {
  const inPage = element.matches?.('[data-figure]') ?? false;
  if (!Object.hasOwn(FIGURES, name) || !(inPage || (markup && Object.hasOwn(markup, name)))) {
    const known = Object.keys(FIGURES).join(', ');
    setStatus(element, name
      ? `There is no figure called \u201c${clip(name)}\u201d. Figures: ${known}.`
      : `Name a figure, for example \u201ctemperature\u201d. Figures: ${known}.`, true);
    return null;
  }

  let figure = element;
  if (!inPage) {
    const template = document.createElement('template');
    template.innerHTML = markup[name]; // built from our own index.html, never from the link
    figure = template.content.firstElementChild;
    element.appendChild(figure);
  }

  showStarting(figure);
  let api;
  try {
    api = await lab;
  } catch (error) {
    if (lifetime.disposed) return figure;
    showStartFailure(figure, error, links);
    console.error(error);
    return figure;
  }
  if (lifetime.disposed) return figure; // it went while the core started: nothing to start
  // The shared charts' and scroll boxes' observers let go of this figure's elements.
  lifetime.add(() => {
    releaseCharts(figure);
    releaseScrollRegions(figure);
  });
  // What the figure subscribes to and the training sessions it creates end with it.
  const figureState = scopedStore(state, lifetime);
  const follows = SENTENCE_FIGURES.includes(name);
  try {
    // Settings that must fit together (a figure's resolveSettings, beside its SETTINGS) are
    // resolved by the store whenever they are defined or changed, from whichever entry point.
    state.constrain(name, FIGURES[name].resolveSettings);
    const started = performance.now();
    if (follows) {
      defineSentence(state);
      // A sentence from a link or an element is tagged before the figure first draws.
      const text = state.get(SENTENCE_KEY);
      if (!isLesson(text)) await tagSentence(text, sentenceBase(links)).catch((error) => notice(`The sentence could not be read: ${error.message}; showing the lesson's sentence.`));
      if (lifetime.disposed) return figure;
    }
    // A figure registers what it starts with `lifetime`; a dispose function it returns runs too.
    // A figure built on the toy sentence is drawn again, from scratch, for each new sentence.
    const drawn = mountFollowing(figure, name, { api, state, lifetime, links });
    drawn.start();
    if (follows) lifetime.add(state.subscribe([SENTENCE_KEY, FEATURES_KEY], () => drawn.redraw()));
    [...figure.children].find((child) => child.classList.contains('figure-status'))?.remove();
    // For the page benchmark (scripts/bench-page.mjs): when each figure became usable, and
    // how long its mount held the main thread.
    if (timeline) {
      performance.mark('attention-lab:figure-mounted', { detail: name });
      performance.measure(`attention-lab:mount ${name}`, { start: started });
    }
  } catch (error) {
    setStatus(figure, `This figure could not be drawn: ${error.message}`, true);
    console.error(error);
    return figure;
  }
  noticeUnknownSettings(state, name, { notice, askedBy, settingName: links.settingName ?? ((param) => param) });
  try {
    addFigureToolbar(figure, {
      figureName: name, state: figureState, embedBase: links.embedBase, pageUrl: links.pageUrl, standalone: links.standalone,
      filesBase: links.filesBase, lifetime,
    });
  } catch (error) {
    console.error(error); // the figure itself still works without its toolbar
  }
  // A tall figure's parts, one at a time in the slide layout.
  addSlideSteps(figure, name);
  return figure;
}
