/**
 * Token checks of main's local doors: the web host's page and socket, the bridges' channel, the
 * bridged servers' loopback HTTP.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Whether `candidate` equals `token`, in time independent of where they differ.
 * Both sides are hashed with SHA-256 first so that `timingSafeEqual` compares equal-length
 * buffers and the comparison leaks neither content nor length.
 *
 * @param candidate the token the client sent (`null`/`undefined` when absent → false).
 * @param token the expected token (non-empty).
 */
export function tokenMatches(candidate: string | null | undefined, token: string): boolean {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 1024) return false;
  const a = createHash('sha256').update(candidate, 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : undefined;
}
