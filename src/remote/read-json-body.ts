import type { IncomingMessage } from 'node:http';
import { RequestBodyError } from './request-body-error.ts';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request's JSON body; a `RequestBodyError` when it is over 4 MiB or not JSON. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RequestBodyError('the request body is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new RequestBodyError(`the request body is not JSON: ${(error as Error).message}`, { cause: error });
  }
}
