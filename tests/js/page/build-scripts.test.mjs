// scripts/setup.sh never runs npm ci through a node_modules that links to another checkout's
// (it would empty that folder for every worktree sharing it). scripts/build-core.sh as
// scripts/dist.sh uses it: a build folder configured from another
// checkout (a moved or copied repository) is configured afresh instead of stopping CMake, and
// the dist target leaves the GoogleTest suite out. Configure steps only: nothing is compiled.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const work = mkdtempSync(join(tmpdir(), 'attention-lab-build-'));
const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
after(() => rmSync(work, { recursive: true, force: true }));

const cacheValue = (dir, key) => {
  const match = new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm').exec(readFileSync(join(dir, 'CMakeCache.txt'), 'utf8'));
  return match?.[1];
};

test('a build folder configured from another checkout is configured afresh, without the test suite', () => {
  // The same sources at another path, configured into the folder dist.sh will use.
  const elsewhere = join(work, 'moved-checkout');
  for (const part of ['CMakeLists.txt', 'cpp', 'tests/cpp']) cpSync(join(ROOT, part), join(elsewhere, part), { recursive: true });
  const buildRoot = join(work, 'build');
  const distDir = join(buildRoot, 'dist-wasm');
  execFileSync('emcmake', ['cmake', '-S', elsewhere, '-B', distDir, '-DCMAKE_BUILD_TYPE=Release'], { env, stdio: 'pipe' });
  assert.equal(cacheValue(distDir, 'CMAKE_HOME_DIRECTORY'), elsewhere);
  // What a plain CMake call in that folder now says, as dist.sh used to fail:
  const plain = spawnSync('cmake', ['-S', ROOT, '-B', distDir], { env, encoding: 'utf8' });
  assert.notEqual(plain.status, 0);
  assert.match(plain.stderr, /is different than the directory|does not match the source/);

  const run = spawnSync('bash', [join(ROOT, 'scripts/build-core.sh'), 'dist'], {
    env: { ...env, ATTN_BUILD_ROOT: buildRoot, ATTN_CONFIGURE_ONLY: '1' }, encoding: 'utf8', cwd: work,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /was configured for .*moved-checkout; configuring it afresh/);
  assert.equal(cacheValue(distDir, 'CMAKE_HOME_DIRECTORY'), ROOT);
  assert.equal(cacheValue(distDir, 'ATTN_TESTS'), 'OFF');
  const targets = execFileSync('cmake', ['--build', distDir, '--target', 'help'], { env, encoding: 'utf8' });
  assert.match(targets, /attention_lab_single/);
  assert.match(targets, /attention_lab_web/);
  assert.doesNotMatch(targets, /attention_tests|gtest/);

  // Run again: a folder of this checkout is kept as it is.
  const again = spawnSync('bash', [join(ROOT, 'scripts/build-core.sh'), 'dist'], {
    env: { ...env, ATTN_BUILD_ROOT: buildRoot, ATTN_CONFIGURE_ONLY: '1' }, encoding: 'utf8',
  });
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /afresh/);
});

test('setup.sh leaves a shared (symlinked) node_modules alone, even when the lock file looks newer', () => {
  const shared = join(work, 'main-checkout');
  const worktree = join(work, 'worktree');
  mkdirSync(join(shared, 'node_modules/some-package'), { recursive: true });
  writeFileSync(join(shared, 'node_modules/some-package/index.js'), 'export default 1;\n');
  writeFileSync(join(shared, 'node_modules/.package-lock.json'), '{}\n');
  writeFileSync(join(shared, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
  mkdirSync(join(worktree, 'scripts'), { recursive: true });
  cpSync(join(ROOT, 'scripts/setup.sh'), join(worktree, 'scripts/setup.sh'));
  writeFileSync(join(worktree, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {"": {}}}\n');
  const past = new Date(Date.now() - 3600_000);
  utimesSync(join(shared, 'node_modules/.package-lock.json'), past, past); // the lock file is newer
  symlinkSync(join(shared, 'node_modules'), join(worktree, 'node_modules'));

  const run = spawnSync('bash', [join(worktree, 'scripts/setup.sh')], { env, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.ok(existsSync(join(shared, 'node_modules/some-package/index.js')), 'the shared packages are still there');
  assert.match(run.stderr, /node_modules is a link to .*main-checkout\/node_modules .*not running npm ci/);
});
