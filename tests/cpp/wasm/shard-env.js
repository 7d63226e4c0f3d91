// Linked before the WebAssembly test suite (--pre-js): Emscripten gives a program under node an
// environment of its own, so GoogleTest's sharding variables are copied in from node's, letting
// ctest run the suite as several processes, each with its share of the cases.
Module.preRun = [() => {
  for (const name of ['GTEST_TOTAL_SHARDS', 'GTEST_SHARD_INDEX']) {
    if (process.env[name] !== undefined) ENV[name] = process.env[name];
  }
}];
