// The benchmark's hand-written ONNX graph (scripts/onnx-attention.mjs) is a model onnxruntime-web
// accepts, and it computes what lab.attention computes in float32.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { test } from 'node:test';
import * as ort from 'onnxruntime-web';
import { attentionModel } from '../../../scripts/onnx-attention.mjs';
import { loadLab } from '../load-lab.mjs';

const require = createRequire(import.meta.url);

test('the ONNX attention graph loads in onnxruntime-web and agrees with lab.attention in float32 to 1e-5', async () => {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = `${dirname(require.resolve('onnxruntime-web'))}/`; // from node_modules, no network
  const lab = await loadLab();
  const [n, m, d, dv] = [5, 7, 4, 3];
  let seed = 7;
  const random = (rows, cols) => {
    const data = new Float32Array(rows * cols);
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      data[i] = 4 * (seed / 2147483648 - 0.5);
    }
    return { rows, cols, data };
  };
  const Q = random(n, d), K = random(m, d), V = random(m, dv);
  const session = await ort.InferenceSession.create(attentionModel(n, m, d, dv), { executionProviders: ['wasm'] });
  const tensor = (x) => new ort.Tensor('float32', x.data, [x.rows, x.cols]);
  const { O } = await session.run({ Q: tensor(Q), K: tensor(K), V: tensor(V) });
  assert.deepEqual(O.dims, [n, dv]);
  const expected = lab.attention(Q, K, V).output.data;
  const largest = Math.max(...expected.map(Math.abs));
  assert.ok(largest > 0.1, `outputs of size ${largest}`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(O.data[i] - expected[i]) <= 1e-5 * largest, `entry ${i}: onnxruntime ${O.data[i]}, lab ${expected[i]}`);
  }
  await session.release();
});
