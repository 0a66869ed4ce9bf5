import {
  CreateCacheEntryRequest,
  CreateCacheEntryResponse,
  FinalizeCacheEntryUploadRequest,
  FinalizeCacheEntryUploadResponse,
  GetCacheEntryDownloadURLRequest,
  GetCacheEntryDownloadURLResponse,
} from '@actions/cache/lib/generated/results/api/v1/cache.js';
import type { FakeActionsCacheState } from './fake-actions-cache-state.ts';
import { FakeActionsCacheViolationError } from './fake-actions-cache-violation-error.ts';

/** The twirp service the package calls (`github.actions.results.api.v1.CacheService`). */
export const CACHE_SERVICE = 'github.actions.results.api.v1.CacheService';

export interface TwirpContext {
  state: FakeActionsCacheState;
  /** A signed URL for one blob, read (`r`) or write (`cw`). */
  signedUrl(blobName: string, permissions: 'r' | 'cw'): string;
}

/** Twirp's JSON answer: `[status, body]`. */
export type TwirpAnswer = [number, unknown];

/**
 * Parses a request body with the package's own generated message type, rejecting fields the
 * message does not have (the client sends proto field names: `restore_keys`, `size_bytes`).
 */
function parse<T>(type: { fromJson(json: never, options: { ignoreUnknownFields: boolean }): T }, body: unknown): T {
  try {
    return type.fromJson(body as never, { ignoreUnknownFields: false });
  } catch (error) {
    throw new FakeActionsCacheViolationError(400, `malformed twirp request: ${(error as Error).message}`);
  }
}

function answer<T>(
  type: { toJson(message: T, options: { useProtoFieldName: boolean }): unknown },
  message: T,
): TwirpAnswer {
  return [200, type.toJson(message, { useProtoFieldName: true })];
}

/** Answers one twirp method, as the Actions results service does for the cache. */
export function twirpRoute(method: string, body: unknown, ctx: TwirpContext): TwirpAnswer {
  switch (method) {
    case 'CreateCacheEntry': {
      const request = parse(CreateCacheEntryRequest, body);
      if (!request.key || !request.version)
        throw new FakeActionsCacheViolationError(400, 'key and version are required');
      if (ctx.state.find(request.key, request.version)) {
        // The service keeps a key+version once: a second save is refused (the package logs and returns -1).
        return [
          409,
          { code: 'already_exists', msg: 'cache entry with the same key, version, and scope already exists' },
        ];
      }
      const entry = ctx.state.reserve(request.key, request.version);
      return answer(CreateCacheEntryResponse, {
        ok: true,
        signedUploadUrl: ctx.signedUrl(entry.blobName, 'cw'),
        message: '',
      });
    }
    case 'FinalizeCacheEntryUpload': {
      const request = parse(FinalizeCacheEntryUploadRequest, body);
      const entry = ctx.state.find(request.key, request.version);
      const blob = entry && ctx.state.blobs.get(entry.blobName);
      if (!entry || entry.finalized || !blob?.content) {
        return answer(FinalizeCacheEntryUploadResponse, {
          ok: false,
          entryId: '0',
          message: 'no uploaded entry to finalize',
        });
      }
      if (String(blob.content.length) !== request.sizeBytes) {
        throw new FakeActionsCacheViolationError(
          400,
          `size_bytes ${request.sizeBytes} is not the uploaded size ${blob.content.length}`,
        );
      }
      entry.finalized = true;
      entry.sizeBytes = blob.content.length;
      return answer(FinalizeCacheEntryUploadResponse, { ok: true, entryId: String(entry.id), message: '' });
    }
    case 'GetCacheEntryDownloadURL': {
      const request = parse(GetCacheEntryDownloadURLRequest, body);
      const entry = ctx.state.lookup(request.key, request.restoreKeys, request.version);
      if (!entry) return answer(GetCacheEntryDownloadURLResponse, { ok: false, signedDownloadUrl: '', matchedKey: '' });
      return answer(GetCacheEntryDownloadURLResponse, {
        ok: true,
        signedDownloadUrl: ctx.signedUrl(entry.blobName, 'r'),
        matchedKey: entry.key,
      });
    }
    default:
      return [404, { code: 'bad_route', msg: `no handler for path "/twirp/${CACHE_SERVICE}/${method}"` }];
  }
}
