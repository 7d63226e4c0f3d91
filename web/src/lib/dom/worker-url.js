// Where a figure's Worker script lives: beside the page's bundle (build-web.mjs writes each
// Worker there), or nowhere where there is no bundle address or no Worker (the element's
// classic script, whose build defines import.meta.url as undefined).

/** The address of `file` beside this bundle, or null where a Worker cannot be started from it. */
export function workerUrl(file) {
  if (typeof Worker !== 'function') return null;
  try {
    return new URL(file, import.meta.url);
  } catch {
    return null;
  }
}
