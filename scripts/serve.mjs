#!/usr/bin/env node
// A tiny static file server for the built page, with no dependencies.
//
//   node scripts/serve.mjs [--root build/web] [--port 8000] [--host 127.0.0.1] [--csp]
//
// --csp adds the Content-Security-Policy the page is meant to run under, so that a local
// run catches anything (inline script or style, eval, a foreign URL) that would break it.
// Tests import startServer() and pass port 0 to get any free port.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

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

async function findFile(path) {
  try {
    const info = await stat(path);
    if (info.isFile()) return { path, size: info.size };
    if (info.isDirectory()) return findFile(join(path, 'index.html'));
  } catch {
    // fall through: not found
  }
  return null;
}

/**
 * Starts serving `root`. Resolves to { url, server, close() } once listening.
 * @param {{ root?: string, port?: number, host?: string, csp?: boolean, log?: boolean }} options
 */
export function startServer({ root = join(ROOT, 'build/web'), port = 8000, host = '127.0.0.1', csp = false, log = false } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const send = (status, text) => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return send(405, 'method not allowed\n');
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
    if (csp) headers['Content-Security-Policy'] = CSP;
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
      quiet: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be a whole number from 0 to 65535, got "${values.port}"`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ root: values.root, port, host: values.host, csp: values.csp, log: !values.quiet });
    console.log(`Serving ${resolve(values.root)} at ${url}${values.csp ? ' (with Content-Security-Policy)' : ''}`);
  } catch (error) {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  }
}
