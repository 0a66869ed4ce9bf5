import { ADAPTER_SPECIFICATION_VERSION, type Adapter } from '../../../core/adapter/index.ts';
import type { HttpAdapterConfig } from '../../../core/config/index.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import { openHttpSession } from './http-session.ts';
import { createSessionPool } from './session-pool.ts';

export interface HttpAdapterOptions {
  /** Shown by `agent-mux adapters`. Default: `<id> (ca-http-v1 at <baseUrl>)`. */
  displayName?: string;
  /**
   * How long `stop()` waits for the remote to end its stream after `shutdown` before it deletes
   * the session itself. Keep it below the run's grace window (the core's default is 5000 ms). Default 4000.
   */
  shutdownGraceMs?: number;
  /** The `agent.role` sent with each new session. Default `agent`. */
  role?: string;
  /** Bound on the final `DELETE`, so a stalled remote cannot hold the run. Default 2000. */
  deleteTimeoutMs?: number;
}

/**
 * A remote agent speaking ca-http-v1: a session per run (`POST /v1/sessions`), its events over
 * Server-Sent Events (Process-protocol records), tool calls answered through the run's tool host on
 * `/input`, `shutdown` on stop and `DELETE` at every end. One pool of `maxConcurrentSessions`
 * slots per adapter instance: further runs wait in order.
 */
export function httpAdapter(id: string, config: HttpAdapterConfig, options: HttpAdapterOptions = {}): Adapter {
  const pool = createSessionPool(config.maxConcurrentSessions);
  const remote = {
    config,
    pool,
    shutdownGraceMs: options.shutdownGraceMs ?? 4000,
    deleteTimeoutMs: options.deleteTimeoutMs ?? 2000,
    agentId: id,
    agentName: options.displayName ?? id,
    agentRole: options.role ?? 'agent',
  };
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName: options.displayName ?? `${id} (ca-http-v1 at ${config.baseUrl})`,
    // A remote agent runs one turn to completion and names its sessions, as a headless CLI does.
    capabilities: cliCapabilities({
      resume: false,
      fork: false,
      thinking: 'model-dependent',
      mcp: true,
      approvals: 'relay',
      sessionPersistence: 'remote',
      streaming: 'text',
    }),
    costModel: config.costModel,
    secretEnv: [...(config.auth.type === 'bearer' ? [config.auth.tokenEnv] : []), ...(config.secretEnv ?? [])],
    detectAuth(env) {
      const auth = config.auth;
      if (auth.type === 'bearer') {
        return env[auth.tokenEnv]
          ? { status: 'authenticated', method: 'api_key', details: [auth.tokenEnv] }
          : { status: 'unauthenticated', method: 'api_key', details: [auth.tokenEnv] };
      }
      if (auth.type === 'mtls') return { status: 'unknown', method: 'mtls', details: [auth.certPath] };
      return { status: 'unknown', method: 'none' };
    },
    // Its agent's tools are the run's: every call comes here as a `tool_call` (docs/remote.md).
    callerTools: 'native',
    launch: { kind: 'session', open: (ctx) => openHttpSession(ctx, remote) },
  };
}
