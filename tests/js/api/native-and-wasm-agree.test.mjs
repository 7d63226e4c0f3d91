// The native build and the WebAssembly build of the same core give the same numbers.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { buildDir } from '../load-lab.mjs';

const dump = (command, args) => JSON.parse(execFileSync(command, args, { encoding: 'utf8' }));

test('native and WebAssembly agree to 1e-6 relative', () => {
  const native = dump(`${buildDir}native/attention_lab_dump`, []);
  const wasm = dump(process.execPath, ['--no-experimental-fetch', `${buildDir}wasm/attention_lab_dump.cjs`]);
  assert.deepEqual(Object.keys(wasm), Object.keys(native));
  let compared = 0;
  for (const [name, values] of Object.entries(native)) {
    assert.equal(wasm[name].length, values.length, name);
    values.forEach((a, i) => {
      const b = wasm[name][i];
      const tolerance = 1e-6 * Math.max(Math.abs(a), Math.abs(b)) + 1e-12;
      assert.ok(Math.abs(a - b) <= tolerance, `${name}[${i}]: native ${a}, wasm ${b}`);
      compared++;
    });
  }
  assert.ok(compared > 250, `compared ${compared} numbers`);
});
