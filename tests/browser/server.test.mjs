// The dev server (scripts/serve.mjs) behaves like a static host: it compresses what it sends
// when the browser accepts it (and says so in Vary), it takes the long URLs a state link can
// make, and it sends the page's Content-Security-Policy with the directives that do not fall
// back to default-src.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';
import { DESKTOP, WEB_ROOT, useBrowser, scrollToFigure } from './harness.mjs';

const session = useBrowser();
let plainDir = null;
let plain = null;

before(async () => {
  plainDir = await mkdtemp(join(tmpdir(), 'attention-lab-serve-'));
  plain = await startServer({ root: plainDir, port: 0 });
});

after(async () => {
  await plain?.close();
  if (plainDir) await rm(plainDir, { recursive: true, force: true });
});

/** A raw GET (node's fetch would decode the body itself): { status, headers, body }. */
function get(url, headers = {}) {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolvePromise({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('text and wasm go out brotli- or gzip-compressed when accepted, and decode to the file', async () => {
  for (const file of ['index.html', 'main.js', 'styles.css', 'attention_lab_web.wasm']) {
    const original = await readFile(join(WEB_ROOT, file));
    const br = await get(`${session.url}${file}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.status, 200, file);
    assert.equal(br.headers['content-encoding'], 'br', file);
    assert.equal(br.headers.vary, 'Accept-Encoding', file);
    assert.equal(Number(br.headers['content-length']), br.body.length, file);
    assert.ok(br.body.length < original.length * 0.6, `${file}: ${br.body.length} of ${original.length} bytes`);
    assert.ok(brotliDecompressSync(br.body).equals(original), `${file} decodes to the file`);

    const gz = await get(`${session.url}${file}`, { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip', file);
    assert.ok(gunzipSync(gz.body).equals(original), `${file} gunzips to the file`);

    // No Accept-Encoding, or every encoding refused: the file itself, still with Vary.
    for (const accept of [undefined, 'br;q=0, gzip;q=0', 'identity']) {
      const raw = await get(`${session.url}${file}`, accept ? { 'Accept-Encoding': accept } : {});
      assert.equal(raw.headers['content-encoding'], undefined, `${file} with ${accept}`);
      assert.equal(raw.headers.vary, 'Accept-Encoding');
      assert.ok(raw.body.equals(original), `${file} with ${accept}`);
    }
  }
});

test('a pre-compressed copy next to the file is sent as is; images are not compressed', async () => {
  const text = 'export const answer = 42;\n'.repeat(200);
  await writeFile(join(plainDir, 'module.js'), text);
  const copy = gzipSync(text, { level: 1 }); // level 1: different bytes from the server's own
  await writeFile(join(plainDir, 'module.js.gz'), copy);
  const response = await get(`${plain.url}module.js`, { 'Accept-Encoding': 'gzip' });
  assert.equal(response.headers['content-encoding'], 'gzip');
  assert.ok(response.body.equals(copy), 'the .gz file itself');
  assert.equal(gunzipSync(response.body).toString(), text);

  await writeFile(join(plainDir, 'picture.png'), Buffer.alloc(4096));
  const png = await get(`${plain.url}picture.png`, { 'Accept-Encoding': 'gzip, br' });
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.body.length, 4096);
});

test('the browser gets the page compressed and it works', async () => {
  const context = await session.browser.newContext(DESKTOP);
  const page = await context.newPage();
  const encodings = new Map();
  // The headers are read asynchronously: keep each promise, so the check below waits for all.
  page.on('response', (response) => {
    const name = new URL(response.url()).pathname.slice(1) || 'index.html';
    encodings.set(name, response.allHeaders().then((headers) => headers['content-encoding']));
  });
  await page.goto(session.url);
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
  for (const file of ['index.html', 'main.js', 'styles.css', 'attention_lab_web.mjs', 'attention_lab_web.wasm']) {
    assert.equal(await encodings.get(file), 'br', file);
  }
  await scrollToFigure(page, '#figure-temperature'); // a figure far off screen is rendered once a reader nears it
  assert.match(await page.locator('#figure-temperature').getByLabel('on key').innerText(), /cat/);
  await context.close();
});

test('a 16.7 KB link loads; a URL past 32 KiB gets a 414 that says why', async () => {
  // A repeated long value, as a state link with many settings can make (the page drops a
  // value it cannot read, with a note).
  const search = `?temperature.tau=0.5&note=${'x'.repeat(16_700)}`;
  const direct = await get(`${session.url}${search}`);
  assert.equal(direct.status, 200);

  const { page, problems } = await session.openPage({ search });
  assert.equal(await page.locator('#figure-temperature').getByLabel('temperature τ').getAttribute('aria-valuetext'), '0.5');
  assert.deepEqual(problems.filter((p) => /HTTP|request failed/.test(p)), []);

  const embed = await get(`${session.url}embed.html?figure=temperature&tau=0.5&note=${'y'.repeat(16_700)}`);
  assert.equal(embed.status, 200);

  const tooLong = await get(`${session.url}?note=${'z'.repeat(40_000)}`);
  assert.equal(tooLong.status, 414);
  assert.match(tooLong.body.toString(), /URL too long: \d+ bytes, the limit is 32768/);
});

test('the page and the embed are sent with base-uri, form-action and object-src set to none', async () => {
  for (const path of ['', 'index.html', 'embed.html?figure=cost', 'main.js']) {
    const { headers } = await get(`${session.url}${path}`);
    const directives = new Map(headers['content-security-policy'].split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')];
    }));
    assert.equal(directives.get('base-uri'), "'none'", path);
    assert.equal(directives.get('form-action'), "'none'", path);
    assert.equal(directives.get('object-src'), "'none'", path);
    assert.equal(directives.get('script-src'), "'self' 'wasm-unsafe-eval'", path);
  }
});

test('the browser enforces the three directives, from the header and, on a host that sends no policy, from the page itself', async () => {
  const noPolicyHost = await startServer({ root: WEB_ROOT, port: 0, host: '127.0.0.3' });
  try {
    for (const [label, base] of [['served with the header', session.url], ['from a host with no policy', noPolicyHost.url]]) {
      for (const path of ['', 'embed.html?figure=temperature']) {
        const context = await session.browser.newContext(DESKTOP);
        await context.addInitScript(() => {
          window.__violations = [];
          document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective));
        });
        const page = await context.newPage();
        await page.goto(`${base}${path}`);
        await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true', null, { timeout: 20000 });
        const where = `${label}: /${path}`;
        const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
        assert.match(meta, /base-uri 'none'; form-action 'none'; object-src 'none'/, where);
        const result = await page.evaluate(() => {
          const pageUrl = document.baseURI;
          const base = document.createElement('base');
          base.href = 'http://127.0.0.9/elsewhere/';
          document.head.prepend(base);
          const object = document.createElement('object');
          object.data = 'favicon.svg';
          document.body.append(object);
          const form = document.createElement('form');
          form.action = 'favicon.svg';
          document.body.append(form);
          form.submit();
          return { baseKept: document.baseURI === pageUrl };
        });
        assert.ok(result.baseKept, `${where}: an injected <base> does not move the page's URLs`);
        await page.waitForFunction(() => ['base-uri', 'object-src', 'form-action'].every((d) => window.__violations.includes(d)), null, { timeout: 5000 })
          .catch(async () => assert.fail(`${where}: violations seen: ${await page.evaluate(() => window.__violations.join(', '))}`));
        assert.equal(new URL(page.url()).pathname, `/${path.split('?')[0]}`, `${where}: the form did not navigate`);
        await context.close();
      }
    }
  } finally {
    await noPolicyHost.close();
  }
});

test('the full page may be framed only by its own origin (frame-ancestors \'self\'); embed.html by anyone', async () => {
  for (const [path, framable] of [['', false], ['index.html', false], ['embed.html?figure=cost', true]]) {
    const { headers } = await get(`${session.url}${path}`);
    const policy = headers['content-security-policy'] ?? '';
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/, `${path}: the page's own policy is still sent`);
    if (framable) {
      assert.doesNotMatch(policy, /frame-ancestors/, path);
      assert.equal(headers['x-frame-options'], undefined, path);
    } else {
      assert.match(policy, /(^|; )frame-ancestors 'self'(;|$)/, path);
      assert.equal(headers['x-frame-options'], 'SAMEORIGIN', path);
    }
  }
  const noPolicy = await startServer({ root: WEB_ROOT, port: 0, host: '127.0.0.3' });
  const hostDir = await mkdtemp(join(tmpdir(), 'attention-lab-framer-'));
  const framer = await startServer({ root: hostDir, port: 0, host: '127.0.0.2' });
  try {
    const { headers } = await get(`${noPolicy.url}index.html`);
    assert.equal(headers['content-security-policy'], "frame-ancestors 'self'", 'sent without --csp too');
    // Another site frames both: the browser refuses the page and shows the embed.
    await writeFile(join(hostDir, 'framer.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>framer</title></head><body>
<iframe id="page" src="${session.url}index.html"></iframe><iframe id="embed" src="${session.url}embed.html?figure=cost"></iframe></body></html>`);
    const context = await session.browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${framer.url}framer.html`);
    const embed = page.frameLocator('#embed');
    await embed.locator('html[data-lab-ready="true"]').waitFor({ timeout: 20000 });
    assert.ok(await embed.locator('[data-figure="cost"]').count() > 0, 'embed.html shows its figure in another site\'s frame');
    await page.waitForTimeout(300);
    const shown = page.frames().find((f) => f.url().startsWith(`${session.url}index.html`));
    const drawn = shown ? await shown.evaluate(() => document.querySelectorAll('[data-figure]').length).catch(() => 0) : 0;
    assert.equal(drawn, 0, 'the full page is not shown in another site\'s frame');
    await context.close();
  } finally {
    await framer.close();
    await noPolicy.close();
    await rm(hostDir, { recursive: true, force: true });
  }
});
