import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The remote server's check of `Authorization: Bearer <token>`: with no token, every request
 * passes. The token's digest is compared with the header's.
 */
export function bearerCheck(token: string | undefined): (request: IncomingMessage) => boolean {
  const expected = token === undefined ? undefined : digest(token);
  return (request) => {
    if (!expected) return true;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
