// The SCORM side of an LMS package: the launch page (embed.html with data-lms="scorm12", or
// "scorm2004") finds the LMS's API, starts a session, and tells the LMS how far the learner got.
//   - A graded figure (one that reports progress, see progress.js) sets the score (1.2:
//     cmi.core.score.raw, .min and .max; 2004: cmi.score.raw, .min, .max and .scaled), and
//     "completed" once every item is right or shown.
//   - Any other figure is "completed" once the learner has used one of its controls.
//   - On pagehide: the session time, a commit and the end of the session (LMSFinish, Terminate).
// Without an LMS (the page opened on its own, or in a frame of a page without one) it does
// nothing and says nothing: the figure works as in any embed.

import { PROGRESS_EVENT } from './progress.js';

// The ADL's search gives up after a handful of parent windows; nested LMS players rarely
// need more than a few.
const MAX_PARENTS = 10;
const DONE = new Set(['completed', 'passed']);

/** A CMITimespan (SCORM 1.2), HHHH:MM:SS.SS. */
export function scormTimespan(milliseconds) {
  const total = Math.max(0, milliseconds) / 1000;
  const hours = Math.min(9999, Math.floor(total / 3600));
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n, width) => String(n).padStart(width, '0');
  return `${pad(hours, 4)}:${pad(minutes, 2)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/** An ISO 8601 duration (SCORM 2004's timeinterval), PT#H#M#S. */
export function isoDuration(milliseconds) {
  const total = Math.max(0, milliseconds) / 1000;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = Math.round((total % 60) * 100) / 100;
  return `PT${hours}H${minutes}M${seconds}S`;
}

// What differs between the two versions: the API's name, its calls and the data model's names.
export const SCORM_VERSIONS = {
  scorm12: {
    global: 'API', initialize: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish',
    status: 'cmi.core.lesson_status', raw: 'cmi.core.score.raw', min: 'cmi.core.score.min', max: 'cmi.core.score.max', scaled: null,
    sessionTime: 'cmi.core.session_time', exit: 'cmi.core.exit', normalExit: '', time: scormTimespan,
  },
  scorm2004: {
    global: 'API_1484_11', initialize: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate',
    status: 'cmi.completion_status', raw: 'cmi.score.raw', min: 'cmi.score.min', max: 'cmi.score.max', scaled: 'cmi.score.scaled',
    sessionTime: 'cmi.session_time', exit: 'cmi.exit', normalExit: 'normal', time: isoDuration,
  },
};
// Keys that use a control (a slider, a tab, a button); Tab alone only moves through the page.
const USING_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', 'Enter', ' ']);

/** The API (window.API or window.API_1484_11) of `start` or its nearest parent that has one; null if none. */
function searchParents(start, version) {
  let win = start;
  for (let hops = 0; win && hops <= MAX_PARENTS; hops += 1) {
    try {
      const api = win[version.global];
      if (api && typeof api[version.initialize] === 'function') return api;
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

/** The LMS's API by the standard search: this window and its parents, then the opener's. */
export function findScormApi(win = window, version = SCORM_VERSIONS.scorm12) {
  const found = searchParents(win, version);
  if (found) return found;
  let opener = null;
  try {
    opener = win.opener;
  } catch {
    opener = null;
  }
  return opener ? searchParents(opener, version) : null;
}

/**
 * Connects the figure in `root` (the launch page's document) to the LMS, if there is one.
 * graded: whether the figure reports its own progress (its module's REPORTS_PROGRESS);
 * version: 'scorm12' or 'scorm2004'.
 * Returns the session ({ api, finish }) or null when no LMS answered.
 */
export function connectScorm({ root = document, graded = false, win = window, version: name = 'scorm12' } = {}) {
  const version = SCORM_VERSIONS[name] ?? SCORM_VERSIONS.scorm12;
  const api = findScormApi(win, version);
  if (!api) return null;
  let ok = false;
  try {
    ok = String(api[version.initialize]('')) === 'true';
  } catch {
    ok = false;
  }
  if (!ok) return null;
  const started = Date.now();
  const get = (key) => {
    try {
      return String(api[version.get](key) ?? '');
    } catch {
      return '';
    }
  };
  const set = (key, value) => {
    try {
      api[version.set](key, String(value));
    } catch {
      // An LMS that refuses a value leaves the figure working.
    }
  };
  const commit = () => {
    try {
      api[version.commit]('');
    } catch {
      // as above
    }
  };

  let status = get(version.status);
  if (!DONE.has(status) && status !== 'failed' && status !== 'incomplete') {
    status = 'incomplete';
    set(version.status, status);
  }
  const previous = get(version.raw);
  let best = previous !== '' && Number.isFinite(Number(previous)) ? Number(previous) : -1;
  commit();

  const complete = () => {
    if (DONE.has(status)) return;
    status = 'completed';
    set(version.status, status);
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
        set(version.min, min ?? 0);
        set(version.max, max);
        set(version.raw, raw);
        if (version.scaled) set(version.scaled, Math.round((raw / max) * 10000) / 10000);
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
    set(version.sessionTime, version.time(Date.now() - started));
    set(version.exit, DONE.has(status) ? version.normalExit : 'suspend');
    commit();
    try {
      api[version.finish]('');
    } catch {
      // as above
    }
  };
  win.addEventListener('pagehide', finish, { once: true });
  return { api, finish };
}
