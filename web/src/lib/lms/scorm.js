// The SCORM 1.2 side of an LMS package: the launch page (embed.html with data-lms="scorm12")
// finds the LMS's API, starts a session, and tells the LMS how far the learner got.
//   - A graded figure (one that reports progress, see progress.js) sets cmi.core.score.raw,
//     .min and .max, and "completed" once every item is right or shown.
//   - Any other figure is "completed" once the learner has used one of its controls.
//   - On pagehide: the session time, LMSCommit and LMSFinish.
// Without an LMS (the page opened on its own, or in a frame of a page without one) it does
// nothing and says nothing: the figure works as in any embed.

import { PROGRESS_EVENT } from './progress.js';

// The ADL's search gives up after a handful of parent windows; nested LMS players rarely
// need more than a few.
const MAX_PARENTS = 10;
const DONE = new Set(['completed', 'passed']);
// Keys that use a control (a slider, a tab, a button); Tab alone only moves through the page.
const USING_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', 'Enter', ' ']);

/** window.API of `start` or the nearest parent that has one; null if none (or not reachable). */
function searchParents(start) {
  let win = start;
  for (let hops = 0; win && hops <= MAX_PARENTS; hops += 1) {
    try {
      if (win.API && typeof win.API.LMSInitialize === 'function') return win.API;
    } catch {
      // A window of another origin: its API is not ours to reach.
    }
    let parent = null;
    try {
      parent = win.parent;
    } catch {
      parent = null;
    }
    if (!parent || parent === win) break;
    win = parent;
  }
  return null;
}

/** The SCORM 1.2 API by the standard search: this window and its parents, then the opener's. */
export function findScormApi(win = window) {
  const found = searchParents(win);
  if (found) return found;
  let opener = null;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  return opener ? searchParents(opener) : null;
}

/** A CMITimespan, HHHH:MM:SS.SS. */
export function scormTimespan(milliseconds) {
  const total = Math.max(0, milliseconds) / 1000;
  const hours = Math.min(9999, Math.floor(total / 3600));
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n, width) => String(n).padStart(width, '0');
  return `${pad(hours, 4)}:${pad(minutes, 2)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/**
 * Connects the figure in `root` (the launch page's document) to the LMS, if there is one.
 * graded: whether the figure reports its own progress (its module's REPORTS_PROGRESS).
 * Returns the session ({ api, finish }) or null when no LMS answered.
 */
export function connectScorm({ root = document, graded = false, win = window, api = findScormApi(win) } = {}) {
  if (!api) return null;
  let ok = false;
  try {
    ok = String(api.LMSInitialize('')) === 'true';
  } catch {
    ok = false;
  }
  if (!ok) return null;
  const started = Date.now();
  const get = (name) => {
    try {
      return String(api.LMSGetValue(name) ?? '');
    } catch {
      return '';
    }
  };
  const set = (name, value) => {
    try {
      api.LMSSetValue(name, String(value));
    } catch {
      // An LMS that refuses a value leaves the figure working.
    }
  };
  const commit = () => {
    try {
      api.LMSCommit('');
    } catch {
      // as above
    }
  };

  let status = get('cmi.core.lesson_status');
  if (!DONE.has(status) && status !== 'failed' && status !== 'incomplete') {
    status = 'incomplete';
    set('cmi.core.lesson_status', status);
  }
  const previous = get('cmi.core.score.raw');
  let best = previous === '' ? -1 : Number(previous);
  commit();

  const complete = () => {
    if (DONE.has(status)) return;
    status = 'completed';
    set('cmi.core.lesson_status', status);
  };

  const listeners = new AbortController();
  const { signal } = listeners;
  if (graded) {
    root.addEventListener(PROGRESS_EVENT, (event) => {
      const { raw, min, max, completed } = event.detail ?? {};
      if (!Number.isFinite(raw) || !Number.isFinite(max) || max <= 0) return;
      // A later session that starts over does not lower a score the learner already has.
      if (raw > best) {
        best = raw;
        set('cmi.core.score.min', min ?? 0);
        set('cmi.core.score.max', max);
        set('cmi.core.score.raw', raw);
      }
      if (completed) complete();
      commit();
    }, { signal });
  } else {
    const used = (event) => {
      if (event.type === 'keydown' && !USING_KEYS.has(event.key)) return;
      if (!event.isTrusted) return;
      complete();
      commit();
      for (const type of ['input', 'change', 'click', 'pointerdown', 'keydown']) root.removeEventListener(type, used, true);
    };
    for (const type of ['input', 'change', 'click', 'pointerdown', 'keydown']) root.addEventListener(type, used, { capture: true, signal });
  }

  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    listeners.abort();
    set('cmi.core.session_time', scormTimespan(Date.now() - started));
    set('cmi.core.exit', DONE.has(status) ? '' : 'suspend');
    commit();
    try {
      api.LMSFinish('');
    } catch {
      // as above
    }
  };
  win.addEventListener('pagehide', finish, { once: true });
  return { api, finish };
}
