#!/usr/bin/env node
// A tiny static file server for the built page, with no dependencies.
//
//   node scripts/serve.mjs [--root build/web] [--port 8000] [--host 127.0.0.1] [--csp] [--no-compression]
//
// --csp adds the Content-Security-Policy the page is meant to run under, so that a local
// run catches anything (inline script or style, eval, a foreign URL) that would break it.
// Text and wasm go out brotli- or gzip-compressed when the browser accepts it, as from any
// static host: a pre-compressed `<file>.br` or `<file>.gz` next to the file (dist/ has .gz
// copies) is sent as is, anything else is compressed once and kept in memory.
// Tests import startServer() and pass port 0 to get any free port.

import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

// base-uri, form-action and object-src do not fall back to default-src, so they are named:
// no <base> can re-point the page's relative URLs, no form can post anywhere, no plugin loads.
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
  + "base-uri 'none'; form-action 'none'; object-src 'none'";

// Who may show a page in a frame. A <meta> policy cannot say it (browsers ignore
// frame-ancestors there), so only the server can. The full page may be framed by its own
// origin alone, so no other site can dress it up and trick a reader into clicking through it;
// embed.html exists to be framed anywhere and gets no frame-ancestors.
export const FRAME_ANCESTORS = "frame-ancestors 'self'";
const FRAMEABLE = /(^|[\\/])embed\.html$/i;

/** The frame-ancestors directive a served file gets (every HTML page but embed.html), or null. */
export function frameAncestorsFor(path) {
  return /\.html$/i.test(path) && !FRAMEABLE.test(path) ? FRAME_ANCESTORS : null;
}

// A state link can carry every setting of every figure; Node's default 16 KiB header limit
// answered such URLs with a bare 431. Headers may now be 64 KiB, and a URL past 32 KiB gets a
// 414 that says why.
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_URL_BYTES = 32 * 1024;

const COMPRESSIBLE = /\.(html|js|mjs|css|json|map|svg|wasm|txt)$/i;
const compressors = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
};
const COMPRESS_OPTIONS = {
  // On the page's files quality 5 takes 1–90 ms where 11 takes 0.4–4.6 s, for 10–15 % more
  // bytes (main.js: 51.4 against 46.7 KB; gzip -6 gives 55.6 KB).
  br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  gzip: { level: 6 },
};

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Maps a URL path onto a file under root, refusing anything that would escape it. */
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const path = resolve(join(root, decoded));
  return path === root || path.startsWith(root + sep) ? path : null;
}

/**
 * The encoding to send, from an Accept-Encoding header: brotli, then gzip, else none (null).
 * An encoding given q=0 is refused, as is every unnamed one under "*;q=0".
 */
export function negotiateEncoding(header) {
  if (!header) return null;
  const quality = new Map();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    quality.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const accepts = (name) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  return ['br', 'gzip'].find(accepts) ?? null;
}

async function findFile(path) {
  try {
    const info = await stat(path);
    if (info.isFile()) return { path, size: info.size, mtimeMs: info.mtimeMs };
    if (info.isDirectory()) return findFile(join(path, 'index.html'));
  } catch {
    // fall through: not found
  }
  return null;
}

/** A pre-compressed copy (`file.br`, `file.gz`) no older than the file itself, or null. */
async function precompressed(file, encoding) {
  const copy = await findFile(`${file.path}.${encoding === 'br' ? 'br' : 'gz'}`);
  return copy && copy.mtimeMs >= file.mtimeMs ? readFile(copy.path) : null;
}

/**
 * Starts serving `root`. Resolves to { url, server, close() } once listening.
 * `csp` is true for the page's own policy (CSP above), or a policy string to send instead
 * (tests use it to play a host with a policy of its own). `compression: false` sends every
 * file as is.
 * @param {{ root?: string, port?: number, host?: string, csp?: boolean | string, compression?: boolean, log?: boolean }} options
 */
export function startServer({ root = join(ROOT, 'build/web'), port = 8000, host = '127.0.0.1', csp = false, compression = true, log = false } = {}) {
  const base = resolve(root);
  const policy = typeof csp === 'string' ? csp : csp ? CSP : null;
  const compressedCache = new Map(); // `${encoding} ${path}` → { mtimeMs, size, body }

  async function compressedBody(file, encoding) {
    const key = `${encoding} ${file.path}`;
    const cached = compressedCache.get(key);
    if (cached && cached.mtimeMs === file.mtimeMs && cached.size === file.size) return cached.body;
    const body = (await precompressed(file, encoding))
      ?? (await compressors[encoding](await readFile(file.path), COMPRESS_OPTIONS[encoding]));
    compressedCache.set(key, { mtimeMs: file.mtimeMs, size: file.size, body });
    return body;
  }

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (request, response) => {
    const send = (status, text) => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return send(405, 'method not allowed\n');
    }
    if (Buffer.byteLength(request.url) > MAX_URL_BYTES) {
      return send(414, `URL too long: ${Buffer.byteLength(request.url)} bytes, the limit is ${MAX_URL_BYTES}\n`);
    }
    const { pathname } = new URL(request.url, 'http://localhost');
    const target = resolveInside(base, pathname);
    const file = target && (await findFile(target));
    if (log) console.log(`${request.method} ${pathname} ${file ? 200 : 404}`);
    if (!file) return send(404, 'not found\n');

    const headers = {
      'Content-Type': MIME_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': file.size,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    };
    // Sent with or without --csp: framing is the server's to refuse. A host's policy (a test
    // playing a course page) is sent as given.
    const ancestors = typeof csp === 'string' ? null : frameAncestorsFor(file.path);
    if (policy || ancestors) headers['Content-Security-Policy'] = [policy, ancestors].filter(Boolean).join('; ');
    if (ancestors) headers['X-Frame-Options'] = 'SAMEORIGIN'; // the same, for browsers before CSP 2
    if (compression && COMPRESSIBLE.test(file.path)) {
      // Caches must keep the encodings apart, even for a client that gets the plain file.
      headers.Vary = 'Accept-Encoding';
      const encoding = negotiateEncoding(request.headers['accept-encoding']);
      if (encoding) {
        let body;
        try {
          body = await compressedBody(file, encoding);
        } catch {
          return send(500, 'could not compress the file\n');
        }
        headers['Content-Encoding'] = encoding;
        headers['Content-Length'] = body.length;
        response.writeHead(200, headers);
        return response.end(request.method === 'HEAD' ? undefined : body);
      }
    }
    response.writeHead(200, headers);
    if (request.method === 'HEAD') return response.end();
    createReadStream(file.path).on('error', () => response.destroy()).pipe(response);
  });

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const url = `http://${shownHost}:${address.port}/`;
      resolvePromise({
        url,
        server,
        close: () => new Promise((done) => {
          server.closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      root: { type: 'string', default: join(ROOT, 'build/web') },
      port: { type: 'string', default: '8000' },
      host: { type: 'string', default: '127.0.0.1' },
      csp: { type: 'boolean', default: false },
      'no-compression': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be a whole number from 0 to 65535, got "${values.port}"`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ root: values.root, port, host: values.host, csp: values.csp, compression: !values['no-compression'], log: !values.quiet });
    console.log(`Serving ${resolve(values.root)} at ${url}${values.csp ? ' (with Content-Security-Policy)' : ''}`);
  } catch (error) {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  }
}
