// The LMS package's pure parts under node: the zip and its manifest (lib/lms/package.js), the
// SCORM adapter against a fake LMS (lib/lms/scorm.js) and the graded figures' tally
// (lib/lms/progress.js). The browser test (tests/browser/lms-package.test.mjs) plays a real
// package in scorm-again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { embedFiles, launchPage, packageFiles, scormPackage } from '../../../web/src/lib/lms/package.js';
import { connectScorm, isoDuration, scormTimespan } from '../../../web/src/lib/lms/scorm.js';
import { PROGRESS_EVENT, createTally } from '../../../web/src/lib/lms/progress.js';

const EMBED = `<!doctype html>
<html lang="en" class="embed">
<head><link rel="icon" href="favicon.svg"><link rel="stylesheet" href="styles.abc0123456.css">
<script type="module" src="embed.abc0123456.js"></script><!-- <script src="old.js"></script> -->
<link rel="preload" href="attention_lab_web.abc0123456.wasm" as="fetch">
<noscript><link rel="stylesheet" href="pictures/pictures.css"></noscript></head>
<body><noscript>
    <figure id="picture-map" class="noscript-picture"><span></span></figure>
    <p>off</p></noscript><a href="index.html">page</a><a href="https://example.org/x.js">x</a></body></html>`;

test('the package holds the manifest, the launch page and every file it loads', async () => {
  assert.deepEqual(embedFiles(EMBED), ['favicon.svg', 'styles.abc0123456.css', 'embed.abc0123456.js', 'attention_lab_web.abc0123456.wasm']);
  const names = await packageFiles({ embedHtml: EMBED, figureName: 'measured', readText: async () => 'new URL("measured-worker.fedcba9876.js", import.meta.url)' });
  assert.ok(names.includes('measured-worker.fedcba9876.js'), 'the measured figure brings its Worker');
  const files = new Map(embedFiles(EMBED).map((name) => [name, new TextEncoder().encode(name)]));
  const { name, bytes } = scormPackage({ figureName: 'map', title: 'Attention Lab: <Map> & more', settings: { tau: '0.5' }, page: 'https://example.org/lab/', embedHtml: EMBED, files });
  assert.equal(name, 'attention-lab-map-scorm12.zip');
  const zip = unzipSync(bytes);
  assert.equal(Object.keys(zip)[0], 'imsmanifest.xml');
  const manifest = strFromU8(zip['imsmanifest.xml']);
  assert.match(manifest, /<title>Attention Lab: &lt;Map&gt; &amp; more<\/title>/);
  for (const file of Object.keys(zip).filter((n) => n !== 'imsmanifest.xml')) assert.match(manifest, new RegExp(`<file href="${file.replaceAll('.', '\\.')}"/>`));
  const launch = strFromU8(zip['embed.html']);
  assert.match(launch, /<html lang="en" class="embed" data-lms="scorm12" data-launch="figure=map&amp;tau=0\.5&amp;toolbar=off&amp;page=https%3A%2F%2Fexample\.org%2Flab%2F">/);
  assert.doesNotMatch(launch, /pictures\/|noscript-picture/, 'no pictures that the zip does not hold');
  const v2004 = unzipSync(scormPackage({ figureName: 'map', title: 'T', embedHtml: EMBED, files, version: 'scorm2004' }).bytes);
  assert.match(strFromU8(v2004['imsmanifest.xml']), /2004 4th Edition[\s\S]*adlcp:scormType="sco"/);
  assert.match(launchPage(EMBED, { figure: 'map' }, 'scorm2004'), /data-lms="scorm2004"/);
});

/** A fake SCORM 1.2 LMS: its data, a log of calls, and a window that holds it. */
function fakeLms(data = {}) {
  const calls = [];
  const api = {
    LMSInitialize: (arg) => { calls.push(['LMSInitialize', arg]); return 'true'; },
    LMSGetValue: (key) => data[key] ?? '',
    LMSSetValue: (key, value) => { calls.push(['LMSSetValue', key, value]); data[key] = value; return 'true'; },
    LMSCommit: () => { calls.push(['LMSCommit']); return 'true'; },
    LMSFinish: () => { calls.push(['LMSFinish']); return 'true'; },
  };
  const top = Object.assign(new EventTarget(), { API: api });
  top.parent = top;
  // The package's window is a frame two levels down, as in an LMS's player.
  const middle = Object.assign(new EventTarget(), { parent: top });
  const win = Object.assign(new EventTarget(), { parent: middle });
  return { data, calls, win };
}

const progress = (root, detail) => root.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail }));

test('a graded figure: incomplete, then its score and completion, then the end of the session', () => {
  const { data, calls, win } = fakeLms({ 'cmi.core.lesson_status': 'not attempted' });
  const root = new EventTarget();
  assert.ok(connectScorm({ root, graded: true, win }));
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  progress(root, { raw: 2, min: 0, max: 5, completed: false });
  assert.deepEqual([data['cmi.core.score.raw'], data['cmi.core.score.min'], data['cmi.core.score.max']], ['2', '0', '5']);
  progress(root, { raw: 3, min: 0, max: 5, completed: true });
  assert.equal(data['cmi.core.lesson_status'], 'completed');
  assert.equal(data['cmi.core.score.raw'], '3');
  win.dispatchEvent(new Event('pagehide'));
  win.dispatchEvent(new Event('pagehide'));
  assert.match(data['cmi.core.session_time'], /^\d{4}:\d\d:\d\d\.\d\d$/);
  assert.equal(data['cmi.core.exit'], '');
  assert.deepEqual(calls.slice(-2), [['LMSCommit'], ['LMSFinish']]);
  assert.equal(calls.filter(([name]) => name === 'LMSFinish').length, 1, 'finished once');
  progress(root, { raw: 5, min: 0, max: 5, completed: true });
  assert.equal(data['cmi.core.score.raw'], '3', 'nothing after the session ended');
});

test('a later attempt never lowers the score nor the status', () => {
  const { data, win } = fakeLms({ 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '4' });
  const root = new EventTarget();
  connectScorm({ root, graded: true, win });
  progress(root, { raw: 1, min: 0, max: 5, completed: true });
  assert.equal(data['cmi.core.score.raw'], '4');
  assert.equal(data['cmi.core.lesson_status'], 'passed');
});

test('without an LMS nothing happens', () => {
  const lonely = Object.assign(new EventTarget(), {});
  lonely.parent = lonely;
  assert.equal(connectScorm({ root: new EventTarget(), win: lonely }), null);
  // A parent of another origin throws on access: the search goes on quietly.
  const guarded = new Proxy({}, { get() { throw new Error('SecurityError'); } });
  const framed = Object.assign(new EventTarget(), { parent: guarded });
  assert.equal(connectScorm({ root: new EventTarget(), win: framed }), null);
});

test('the graded figures\' tally and the time formats', () => {
  const tally = createTally(3);
  tally.record(0, true);
  tally.record(0, false); // the first outcome counts
  tally.record(1, false);
  assert.deepEqual(tally.summary(), { raw: 1, min: 0, max: 3, completed: false });
  tally.record(2, true);
  assert.deepEqual(tally.summary(), { raw: 2, min: 0, max: 3, completed: true });
  assert.equal(scormTimespan(3_723_450), '0001:02:03.45');
  assert.equal(isoDuration(3_723_450), 'PT1H2M3.45S');
});
