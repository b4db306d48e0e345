/**
 * Static file lookup for the web host: maps a URL path to a file inside the built renderer folder
 * without ever leaving it (no `..`, no encoded separators, no symlinks pointing outside), and
 * names its content type.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
};

/** The `Content-Type` for a file name by extension; `application/octet-stream` when unknown. */
export function contentTypeFor(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves a URL path (as `new URL(...).pathname` gives it: dot segments already removed,
 * still percent-encoded) to an existing regular file inside `rootDir`.
 *
 * Security: returns null — never a path outside `rootDir` — for undecodable input, NUL bytes,
 * backslashes or encoded `/` (which could smuggle separators past URL normalisation), any `..`
 * segment after decoding, dotfiles, and files whose real path (symlinks followed) is outside the
 * real path of `rootDir`. `/` maps to `index.html`.
 *
 * @param rootDir absolute path of the static folder.
 * @param urlPath the request's pathname, starting with `/`.
 * @returns the file's real absolute path and its size in bytes, or null.
 */
export async function resolveStaticFile(rootDir: string, urlPath: string): Promise<{ file: string; size: number } | null> {
  if (!urlPath.startsWith('/') || /%2f|%5c/i.test(urlPath)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.' || s.startsWith('.'))) return null;
  if (segments.length === 0) segments.push('index.html');
  try {
    const root = await realpath(rootDir);
    const file = await realpath(path.join(root, ...segments));
    if (!file.startsWith(root + path.sep)) return null;
    const info = await stat(file);
    if (!info.isFile()) return null;
    return { file, size: info.size };
  } catch {
    return null;
  }
}

/**
 * Writes a file as the response body (status 200) with `Content-Type`, `Content-Length` and the
 * given extra headers; for HEAD only the headers. Stream errors end the response.
 */
export function sendFile(res: ServerResponse, file: { file: string; size: number }, headers: Record<string, string>, headOnly: boolean): void {
  res.writeHead(200, { ...headers, 'Content-Type': contentTypeFor(file.file), 'Content-Length': String(file.size) });
  if (headOnly) {
    res.end();
    return;
  }
  const stream = createReadStream(file.file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
