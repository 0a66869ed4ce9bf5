import type { IncomingHttpHeaders } from 'node:http';
import type { FakeActionsCacheState, FakeBlob } from './fake-actions-cache-state.ts';
import { FakeActionsCacheViolationError } from './fake-actions-cache-violation-error.ts';

/** What a Blob storage request gets back. */
export interface BlobAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface BlobRequest {
  method: string;
  blobName: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function created(): BlobAnswer {
  return {
    status: 201,
    headers: {
      etag: `"0x${Date.now().toString(16).toUpperCase()}"`,
      'last-modified': new Date().toUTCString(),
      'x-ms-request-server-encrypted': 'true',
    },
  };
}

/** The block ids a `Put Block List` body names (`<Latest>`, `<Committed>`, `<Uncommitted>`), in order. */
function blockListIds(xml: string): string[] {
  if (!/<BlockList>[\s\S]*<\/BlockList>/.test(xml))
    throw new FakeActionsCacheViolationError(400, 'Put Block List: no <BlockList>');
  return [...xml.matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)<\/(?:Latest|Committed|Uncommitted)>/g)].map(
    (m) => m[1] ?? '',
  );
}

/**
 * The Blob service operations the package's upload (`BlockBlobClient.uploadFile`: `Put Blob` up to
 * 128 MiB, else `Put Block` + `Put Block List`) and download (a plain `GET`: `Get Blob`) send.
 * The signature and permissions are checked by the caller.
 */
export function blobRoute(request: BlobRequest, state: FakeActionsCacheState, permissions: string): BlobAnswer {
  const { method, query, headers, body } = request;
  const blob: FakeBlob = state.blobs.get(request.blobName) ?? { staged: new Map() };
  if (method === 'GET' || method === 'HEAD') {
    if (!permissions.includes('r')) throw new FakeActionsCacheViolationError(403, 'the signature does not allow reads');
    if (!blob.content) return { status: 404, headers: { 'x-ms-error-code': 'BlobNotFound' } };
    return {
      status: 200,
      headers: {
        'content-length': String(blob.content.length),
        'content-type': 'application/octet-stream',
        'x-ms-blob-type': 'BlockBlob',
      },
      body: method === 'GET' ? blob.content : undefined,
    };
  }
  if (method !== 'PUT')
    throw new FakeActionsCacheViolationError(405, `Blob storage: ${method} is not an operation the package sends`);
  if (!permissions.includes('w')) throw new FakeActionsCacheViolationError(403, 'the signature does not allow writes');
  if (!header(headers, 'x-ms-version'))
    throw new FakeActionsCacheViolationError(400, 'Blob storage: x-ms-version is required');
  const length = header(headers, 'content-length');
  if (length === undefined || Number(length) !== body.length) {
    throw new FakeActionsCacheViolationError(411, 'Blob storage: Content-Length must be the body length');
  }
  const comp = query.get('comp');
  if (comp === null) {
    if (header(headers, 'x-ms-blob-type') !== 'BlockBlob') {
      throw new FakeActionsCacheViolationError(400, 'Put Blob: x-ms-blob-type must be BlockBlob');
    }
    state.blobs.set(request.blobName, { content: body, staged: new Map() });
    return created();
  }
  if (comp === 'block') {
    const id = query.get('blockid');
    if (!id || Buffer.from(id, 'base64').toString('base64') !== id) {
      throw new FakeActionsCacheViolationError(400, 'Put Block: blockid must be base64');
    }
    blob.staged.set(id, body);
    state.blobs.set(request.blobName, blob);
    return created();
  }
  if (comp === 'blocklist') {
    const parts = blockListIds(body.toString('utf8')).map((id) => {
      const part = blob.staged.get(id);
      if (!part)
        throw new FakeActionsCacheViolationError(400, `Put Block List: block ${id} was not staged (InvalidBlockList)`);
      return part;
    });
    state.blobs.set(request.blobName, { content: Buffer.concat(parts), staged: new Map() });
    return created();
  }
  throw new FakeActionsCacheViolationError(400, `Blob storage: comp=${comp} is not an operation the package sends`);
}
