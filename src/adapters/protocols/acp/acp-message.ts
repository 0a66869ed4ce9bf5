import { isObj as isObject } from '../../shared/record-fields.ts';

/** One JSON-RPC 2.0 message of ACP, as the client reads it from the agent's stdout. */
export type AcpMessage =
  | { kind: 'request'; id: string | number; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: string | number | null; result: unknown }
  | { kind: 'error'; id: string | number | null; error: AcpRpcError };

export interface AcpRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Reads one parsed JSON value as an ACP JSON-RPC message. Pure and total: anything that is not a
 * well-formed single message (a batch, a missing `jsonrpc`, an id of the wrong type, an error
 * without a numeric code) gives `undefined`, never a throw.
 */
export function decodeAcpMessage(value: unknown): AcpMessage | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  const { id, method } = value;
  const hasId = 'id' in value;
  if (typeof method === 'string') {
    if (!hasId) return { kind: 'notification', method, params: value.params };
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) {
      return { kind: 'request', id, method, params: value.params };
    }
    return undefined;
  }
  if (!hasId || !(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    return undefined;
  }
  if ('error' in value) {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== 'number') return undefined;
    const message = typeof error.message === 'string' ? error.message : `JSON-RPC error ${error.code}`;
    return {
      kind: 'error',
      id,
      error: { code: error.code, message, ...('data' in error ? { data: error.data } : {}) },
    };
  }
  if ('result' in value) return { kind: 'result', id, result: value.result };
  return undefined;
}

/** A JSON object (not an array, not null): the record-fields reader under ACP's older name. */
export { isObj as isObject } from '../../shared/record-fields.ts';
