// Loads the CommonJS WebAssembly build under node and wraps it in the JS API.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createAttentionLab } from '../../cpp/bindings/attention-lab.js';

const require = createRequire(import.meta.url);
export const buildDir = fileURLToPath(new URL('../../build/', import.meta.url));

export function loadLab() {
  const factory = require(`${buildDir}wasm/attention_lab_node.cjs`);
  // Under node 20 the Emscripten loader would fetch() a file path; hand it the bytes instead.
  const wasmBinary = readFileSync(`${buildDir}wasm/attention_lab_node.wasm`);
  return createAttentionLab(factory, { wasmBinary });
}

/** The API and, for tests that look at the heap itself, the Emscripten module under it. */
export async function loadLabAndCore() {
  const factory = require(`${buildDir}wasm/attention_lab_node.cjs`);
  let core = null;
  const lab = await createAttentionLab(async (options) => {
    core = await factory(options);
    return core;
  }, { wasmBinary: readFileSync(`${buildDir}wasm/attention_lab_node.wasm`) });
  return { lab, core };
}
