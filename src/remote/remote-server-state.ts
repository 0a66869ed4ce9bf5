import type { IncomingMessage } from 'node:http';
import type { RemoteSession } from './remote-session.ts';
import type { RemoteServerOptions } from './start-remote-server.ts';

/** What the remote server's route handlers share: its options, their defaults applied, and its sessions. */
export interface RemoteServerState {
  readonly options: RemoteServerOptions;
  /** The sessions by id, each until it is removed. */
  readonly sessions: Map<string, RemoteSession>;
  /** Sessions whose runs have not ended; one more gets 503. */
  readonly maxSessions: number;
  readonly heartbeatMs: number;
  readonly idleTimeoutMs: number;
  /** Seconds sent in `Retry-After` with a 503. */
  readonly retryAfter: string;
  /** Where sessions' workspaces are, resolved. */
  readonly workspaceRoot: string;
  /** Whether a request carries the bearer token the server asks for (always, when it asks for none). */
  authorized(request: IncomingMessage): boolean;
}
