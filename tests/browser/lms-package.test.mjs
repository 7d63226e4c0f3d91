// A SCORM 1.2 package as an LMS plays it: a package that scripts/dist.sh wrote (dist/lms/,
// or the same build made here when there is no dist/) is unzipped into a course folder and
// served under a strict Content-Security-Policy; the course's player page installs
// scorm-again's Scorm12API as window.API and opens the package's launch page in a frame.
// The learner answers check-yourself, and the LMS must have recorded the score (raw, min,
// max), the lesson status and the end of the session, with no policy violation and no
// console error. Opened with no LMS, the package works and says nothing. The toolbar builds the
// same package at the current settings, and a SCORM 2004 one that scorm-again's Scorm2004API
// grades the same way.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { buildDist } from '../../scripts/build-dist.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, useBrowser } from './harness.mjs';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// An upload area's policy: files of its own origin only, and WebAssembly.
const UPLOAD_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
  + "base-uri 'none'; form-action 'none'; object-src 'none'";

const session = useBrowser();
let courseDir = null;
let distDir = null;
let course = null;

/** The zip of `figure`: dist/lms/ when dist.sh has run, else a dist built here from the tested build. */
async function packageBytes(figure) {
  const written = join(ROOT, 'dist/lms', `${figure}.zip`);
  if (existsSync(written) && !process.env.AL_WEB_ROOT) return readFile(written);
  distDir ??= await mkdtemp(join(tmpdir(), 'attention-lab-dist-'));
  if (!existsSync(join(distDir, 'lms', `${figure}.zip`))) await buildDist({ from: WEB_ROOT, out: distDir });
  return readFile(join(distDir, 'lms', `${figure}.zip`));
}

async function unzipInto(bytes, folder) {
  const files = unzipSync(new Uint8Array(bytes));
  assert.ok(files['imsmanifest.xml'], 'imsmanifest.xml at the root of the zip');
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, name)), { recursive: true });
    await writeFile(join(folder, name), content);
  }
  return files;
}

// The LMS's player: scorm-again's runtime as window.API, a log of every call the package makes.
const PLAYER_SCRIPT = `
window.lmsCalls = [];
const api = new Scorm12API({ logLevel: 5, autocommit: false });
for (const name of ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish']) {
  const call = api[name].bind(api);
  api[name] = (...args) => { window.lmsCalls.push([name, ...args.map(String)]); return call(...args); };
}
window.API = api;
const frame = document.createElement('iframe');
frame.src = document.documentElement.dataset.launch;
frame.title = 'Course activity';
frame.width = '1000';
frame.height = '900';
document.body.appendChild(frame);
`;
const PLAYER_2004_SCRIPT = PLAYER_SCRIPT.replace('new Scorm12API', 'new Scorm2004API')
  .replace("['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish']", "['Initialize', 'SetValue', 'Commit', 'Terminate']")
  .replace('window.API = api;', 'window.API_1484_11 = api;');
const playerPage = (launch, runtime = 'scorm12.min.js', player = 'player.js') => `<!doctype html><html lang="en" data-launch="${launch}"><head><meta charset="utf-8">
<title>Course player</title><link rel="icon" href="data:,"><script src="${runtime}"></script><script src="${player}" defer></script>
</head><body><h1>Week 3: attention</h1></body></html>`;

before(async () => {
  courseDir = await mkdtemp(join(tmpdir(), 'attention-lab-course-'));
  const manifest = await unzipInto(await packageBytes('check-yourself'), join(courseDir, 'check-yourself'));
  assert.match(new TextDecoder().decode(manifest['imsmanifest.xml']), /<schemaversion>1\.2<\/schemaversion>[\s\S]*adlcp:scormtype="sco" href="embed.html"/);
  await unzipInto(await packageBytes('temperature'), join(courseDir, 'temperature'));
  await copyFile(join(ROOT, 'node_modules/scorm-again/dist/scorm12.min.js'), join(courseDir, 'scorm12.min.js'));
  await writeFile(join(courseDir, 'player.js'), PLAYER_SCRIPT);
  await copyFile(join(ROOT, 'node_modules/scorm-again/dist/scorm2004.min.js'), join(courseDir, 'scorm2004.min.js'));
  await writeFile(join(courseDir, 'player-2004.js'), PLAYER_2004_SCRIPT);
  await writeFile(join(courseDir, 'check-yourself-2004.html'), playerPage('check-yourself-2004/embed.html', 'scorm2004.min.js', 'player-2004.js'));
  await writeFile(join(courseDir, 'check-yourself.html'), playerPage('check-yourself/embed.html'));
  await writeFile(join(courseDir, 'temperature.html'), playerPage('temperature/embed.html'));
  course = await startServer({ root: courseDir, port: 0, csp: UPLOAD_CSP });
});

after(async () => {
  await course?.close();
  for (const dir of [courseDir, distDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens `path` of the course; records every console message, error and policy violation in every frame. */
async function open(path) {
  const context = await session.browser.newContext(DESKTOP);
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const problems = [];
  const messages = [];
  page.on('console', (m) => {
    messages.push(`${m.type()}: ${m.text().slice(0, 200)}`);
    if (m.type() === 'error') problems.push(`console: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
  await page.goto(new URL(path, course.url).href);
  return { context, page, problems, messages };
}

async function violations(page) {
  const all = [];
  for (const frame of page.frames()) all.push(...(await frame.evaluate(() => window.__violations ?? []).catch(() => [])));
  return all;
}

const activity = (page) => page.frameLocator('iframe[title="Course activity"]');
const question = (frame, prompt) => frame.locator('.check-yourself-item').filter({ hasText: prompt });

test('check-yourself in an LMS: scorm-again records the score, the status and the end of the session', async () => {
  const { context, page, problems } = await open('check-yourself.html');
  const frame = activity(page);
  await frame.locator('.check-yourself-item').first().waitFor({ timeout: 20000 });
  // Opening the activity starts the attempt.
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'incomplete');

  const shape = question(frame, /shape of the weight matrix/);
  await shape.getByLabel('rows', { exact: true }).fill('10');
  await shape.getByLabel('columns', { exact: true }).fill('10');
  await shape.getByRole('button', { name: 'Check' }).click();
  await page.waitForFunction(() => window.API.cmi.core.score.raw === '1');
  let recorded = await page.evaluate(() => ({ ...window.API.cmi.core.score.toJSON(), status: window.API.cmi.core.lesson_status }));
  assert.deepEqual(recorded, { raw: '1', min: '0', max: '5', status: 'incomplete' });

  // A wrong answer, then its answer shown: done, not earned.
  const growth = question(frame, /How many times as many/);
  await growth.getByLabel('times as many', { exact: true }).fill('2');
  await growth.getByRole('button', { name: 'Check' }).click();
  await growth.getByRole('button', { name: 'Show the answer' }).click();
  for (const prompt of [/Compute attention for q = \[1, 0\]/, /What are the scaled scores/, /how much weight is left/]) {
    await question(frame, prompt).getByRole('button', { name: 'Show the answer' }).click();
  }
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'completed');
  recorded = await page.evaluate(() => ({ ...window.API.cmi.core.score.toJSON(), status: window.API.cmi.core.lesson_status }));
  assert.deepEqual(recorded, { raw: '1', min: '0', max: '5', status: 'completed' });

  // Leaving the activity ends the session: its time, a commit and LMSFinish.
  await page.evaluate(() => document.querySelector('iframe').remove());
  await page.waitForFunction(() => window.lmsCalls.some(([name]) => name === 'LMSFinish'));
  const calls = await page.evaluate(() => window.lmsCalls);
  assert.deepEqual(calls[0], ['LMSInitialize', '']);
  assert.ok(calls.some(([name, key, value]) => name === 'LMSSetValue' && key === 'cmi.core.session_time' && /^\d{4}:\d\d:\d\d\.\d\d$/.test(value)), 'the session time');
  assert.deepEqual(calls.slice(-2).map(([name]) => name), ['LMSCommit', 'LMSFinish']);
  assert.equal(calls.filter(([name]) => name === 'LMSFinish').length, 1);
  assert.equal(await page.evaluate(() => window.API.lastError?.errorCode ?? window.API.lmsGetLastError?.() ?? '0'), '0');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure without a score is completed once the learner uses it', async () => {
  const { context, page, problems } = await open('temperature.html');
  const frame = activity(page);
  const slider = frame.getByRole('slider').first();
  await slider.waitFor({ timeout: 20000 });
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'incomplete');
  assert.equal(await page.evaluate(() => window.API.cmi.core.score.raw), '');
  await slider.focus();
  await slider.press('ArrowRight');
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'completed');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('without an LMS the package works and says nothing', async () => {
  const { context, page, problems, messages } = await open('check-yourself/embed.html');
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
  const shape = question(page, /shape of the weight matrix/);
  await shape.getByLabel('rows', { exact: true }).fill('10');
  await shape.getByLabel('columns', { exact: true }).fill('10');
  await shape.getByRole('button', { name: 'Check' }).click();
  assert.match(await shape.getByRole('status').innerText(), /^Right\./);
  assert.equal(await page.locator('#notices').isHidden(), true, 'no notice');
  assert.equal(await page.locator('.figure-toolbar').isVisible(), false, 'a package shows no toolbar');
  assert.match(await page.title(), / · Attention Lab$/);
  await page.evaluate(() => new Promise((done) => { window.addEventListener('pagehide', () => setTimeout(done)); window.dispatchEvent(new PageTransitionEvent('pagehide')); setTimeout(done, 50); }));
  assert.deepEqual(messages, [], 'nothing in the console');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Embed code panel builds a package at the current settings, in the browser', async () => {
  const { page, problems } = await session.openPage({ search: '?temperature.tau=2.5' });
  const figure = page.locator('#figure-temperature');
  await figure.getByRole('button', { name: 'Embed code' }).click();
  const button = figure.getByRole('button', { name: 'LMS package (SCORM 1.2)' });
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  assert.equal(download.suggestedFilename(), 'attention-lab-temperature-scorm12.zip');
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  const launch = new TextDecoder().decode(files['embed.html']);
  const search = new URLSearchParams(/data-launch="([^"]*)"/.exec(launch)[1].replaceAll('&amp;', '&'));
  assert.equal(search.get('figure'), 'temperature');
  assert.equal(search.get('tau'), '2.5');
  assert.equal(search.get('page'), session.url, 'its links point at the page it came from');
  for (const name of Object.keys(files).filter((n) => n !== 'imsmanifest.xml')) assert.match(manifest, new RegExp(`<file href="${name.replaceAll('.', '\\.')}"/>`));
  assert.ok(files['attention_lab_web.wasm'], 'the core');
  await figure.getByRole('status').filter({ hasText: /Saved attention-lab-temperature-scorm12\.zip/ }).waitFor();
  assert.deepEqual(problems, []);
});

test('a SCORM 2004 package from the toolbar: scorm-again\'s 2004 runtime records the score and completion', async () => {
  const { page: lab, problems: labProblems } = await session.openPage();
  const figure = lab.locator('#figure-check-yourself');
  await figure.getByRole('button', { name: 'Embed code' }).click();
  const button = figure.getByRole('button', { name: 'SCORM 2004' });
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([lab.waitForEvent('download'), button.click()]);
  assert.equal(download.suggestedFilename(), 'attention-lab-check-yourself-scorm2004.zip');
  const files = await unzipInto(await readFile(await download.path()), join(courseDir, 'check-yourself-2004'));
  assert.match(new TextDecoder().decode(files['imsmanifest.xml']), /<schemaversion>2004 4th Edition<\/schemaversion>[\s\S]*adlcp:scormType="sco" href="embed.html"/);
  assert.deepEqual(labProblems, []);

  const { context, page, problems } = await open('check-yourself-2004.html');
  const frame = activity(page);
  await frame.locator('.check-yourself-item').first().waitFor({ timeout: 20000 });
  await page.waitForFunction(() => window.API_1484_11.cmi.completion_status === 'incomplete');
  const shape = question(frame, /shape of the weight matrix/);
  await shape.getByLabel('rows', { exact: true }).fill('10');
  await shape.getByLabel('columns', { exact: true }).fill('10');
  await shape.getByRole('button', { name: 'Check' }).click();
  for (const prompt of [/How many times as many/, /Compute attention for q = \[1, 0\]/, /What are the scaled scores/, /how much weight is left/]) {
    await question(frame, prompt).getByRole('button', { name: 'Show the answer' }).click();
  }
  await page.waitForFunction(() => window.API_1484_11.cmi.completion_status === 'completed');
  const score = await page.evaluate(() => window.API_1484_11.cmi.score.toJSON());
  assert.deepEqual({ raw: score.raw, min: score.min, max: score.max, scaled: score.scaled }, { raw: '1', min: '0', max: '5', scaled: '0.2' });
  await page.evaluate(() => document.querySelector('iframe').remove());
  await page.waitForFunction(() => window.lmsCalls.some(([name]) => name === 'Terminate'));
  const calls = await page.evaluate(() => window.lmsCalls);
  assert.ok(calls.some(([name, key, value]) => name === 'SetValue' && key === 'cmi.session_time' && /^PT\d+H\d+M[\d.]+S$/.test(value)), 'the session time');
  assert.deepEqual(calls.slice(-2).map(([name]) => name), ['Commit', 'Terminate']);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await context.close();
});
