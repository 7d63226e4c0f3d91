// The peers the benchmark times the core against (scripts/bench.mjs), each made for one size:
// TensorFlow.js on its WebAssembly backend and ONNX Runtime Web (wasm, one thread, SIMD), both
// in float32. Each returns a function that computes attention once and returns the output.

import { attentionModel } from './onnx-attention.mjs';

export function tfjsAttention(tf, Q, K, V) {
  const { rows: n, cols: d } = Q;
  const root = Math.sqrt(d);
  return () => {
    const out = tf.tidy(() => {
      const q = tf.tensor2d(Q.data, [n, d]), k = tf.tensor2d(K.data, [K.rows, d]), v = tf.tensor2d(V.data, [V.rows, V.cols]);
      return tf.matMul(tf.softmax(tf.div(tf.matMul(q, k, false, true), root)), v);
    });
    const data = out.dataSync();
    out.dispose();
    return data;
  };
}

export async function onnxAttention(ort, Q, K, V) {
  const session = await ort.InferenceSession.create(attentionModel(Q.rows, K.rows, Q.cols, V.cols), {
    executionProviders: ['wasm'], graphOptimizationLevel: 'all',
  });
  const tensor = (x) => new ort.Tensor('float32', x.data, [x.rows, x.cols]);
  return async () => (await session.run({ Q: tensor(Q), K: tensor(K), V: tensor(V) })).O.data;
}
