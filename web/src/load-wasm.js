// Loads the WebAssembly core once and hands out the JavaScript API over it.
//
// The Emscripten glue stays a separate file next to the page's bundle and is imported at
// run time, so the bundle does not depend on how the core was compiled. locateFile points
// the glue at the .wasm beside it on the same origin; nothing is fetched from elsewhere.

import { createAttentionLab } from '#attention-lab';

const GLUE_FILE = 'attention_lab_web.mjs';

async function loadLab() {
  const glueUrl = new URL(GLUE_FILE, import.meta.url);
  const glue = await import(/* a run-time file, not bundled */ glueUrl.href);
  return createAttentionLab(glue.default, {
    locateFile: (path) => new URL(path, glueUrl).href,
  });
}

/** Resolves to the Attention Lab API; rejects with the loader's error if the core fails. */
export const labReady = loadLab();
// Each figure awaits labReady and shows a plain sentence if it rejects; marking it handled here
// keeps a failed start from also surfacing as an uncaught promise rejection.
labReady.catch(() => {});
