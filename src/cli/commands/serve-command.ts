import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { probeFence } from '../../core/sandbox/probe-fence.ts';
import { type RemoteServerAuth, startRemoteServer } from '../../remote/start-remote-server.ts';
import type { CliIO } from '../cli-io.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { UsageError } from '../usage-error.ts';
import { AGENT_OPTIONS, loadAdapter } from './load-registry.ts';

export const serveUsage = `Usage: agent-mux serve --adapter <id> [options]

Serves a local adapter as a remote agent over ca-http-v1 (see docs/remote.md) until SIGINT or
SIGTERM. Each session runs in a fresh temporary directory under --workspace.

Options:
  --adapter <id>        a built-in adapter (see \`agent-mux adapters\`) or one from --config
  --config <file>       a file of adapters and defaults ({ "adapters": { … } }), JSON or YAML (README, "Command line")
  --port <n>            the port to listen on (default 7001; 0 picks a free one)
  --host <addr>         the address to listen on (default 127.0.0.1)
  --token-env <NAME>    require \`Authorization: Bearer <token>\` with the token in env var NAME
  --cert <file>         with --key and --ca: serve HTTPS and require client certificates (mTLS)
  --key <file>          the server's private key (mTLS)
  --ca <file>           the CA that signs accepted client certificates (mTLS)
  --insecure-no-auth    accept every request (only for a trusted network)
  --max-sessions <n>    sessions run at once; one more gets 503 (default 4)
  --heartbeat <s>       seconds between \`: ping\` comments on event streams (default 15)
  --idle-timeout <s>    stop a session whose caller went away after this long (default 300)
  --workspace <dir>     where sessions' workspaces are made (default: the temp directory)
  -h, --help            this text

One of --token-env, --cert/--key/--ca or --insecure-no-auth is required.`;

const positive = (value: string | undefined, flag: string, unit: number): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} takes a number greater than 0`);
  return n * unit;
};

/** `agent-mux serve`: returns the exit code once a signal has stopped the server. */
export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...AGENT_OPTIONS,
      port: { type: 'string', default: '7001' },
      host: { type: 'string', default: '127.0.0.1' },
      'token-env': { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      ca: { type: 'string' },
      'insecure-no-auth': { type: 'boolean', default: false },
      'max-sessions': { type: 'string' },
      heartbeat: { type: 'string' },
      'idle-timeout': { type: 'string' },
      workspace: { type: 'string' },
    },
  });
  if (values.help) {
    io.stdout.write(`${serveUsage}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number');
  const maxSessions = positive(values['max-sessions'], '--max-sessions', 1);
  if (maxSessions !== undefined && !Number.isInteger(maxSessions)) {
    throw new UsageError('--max-sessions takes a whole number');
  }
  const auth = authFrom(values, io);

  const { adapter } = await loadAdapter(values, io.cwd);
  const workspaceRoot = resolve(io.cwd, values.workspace ?? tmpdir());
  await mkdir(workspaceRoot, { recursive: true });
  // Each run in a PID namespace that dies with this server (bwrap --die-with-parent): a server
  // killed with kill -9 leaves no agent running on this host.
  const fence = { kind: 'processes' as const };
  const probe = await probeFence(fence, workspaceRoot);
  if (!probe.ok) {
    io.stderr.write(
      `agent-mux serve: warning: the runs are not fenced (${probe.message}); an agent outlives this server if it is killed with SIGKILL\n`,
    );
  }
  for (const warning of exposureWarnings(values.host, auth)) io.stderr.write(`agent-mux serve: warning: ${warning}\n`);
  const server = await listenOrSay(values.host ?? '127.0.0.1', port, () =>
    startRemoteServer({
      adapter,
      host: values.host,
      port,
      auth,
      maxSessions,
      heartbeatMs: positive(values.heartbeat, '--heartbeat', 1000),
      idleTimeoutMs: positive(values['idle-timeout'], '--idle-timeout', 1000),
      workspaceRoot,
      env: io.env,
      ...(probe.ok ? { fence } : {}),
    }),
  );
  io.stdout.write(`agent-mux serve: ${adapter.id} at ${server.url} (${auth.type} auth)\n`);

  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    const onSignal = (name: NodeJS.Signals) => {
      io.signals?.off('SIGINT', onSignal);
      io.signals?.off('SIGTERM', onSignal);
      resolveSignal(name);
    };
    io.signals?.on('SIGINT', onSignal);
    io.signals?.on('SIGTERM', onSignal);
  });
  io.stderr.write(`${signal}: stopping the sessions and closing the server\n`);
  await server.close();
  return 0;
}

/** What a server reachable from other hosts says about how exposed its callers' secrets are. */
export function exposureWarnings(host: string, auth: RemoteServerAuth): string[] {
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  if (loopback) return [];
  if (auth.type === 'none') return [`${host} is reachable from other hosts and --insecure-no-auth accepts anyone`];
  if (auth.type === 'bearer') {
    return [
      `the bearer token travels over plain HTTP on ${host}: put a TLS proxy in front (and give callers its https:// URL), or use --cert/--key/--ca`,
    ];
  }
  return [];
}

function authFrom(
  values: {
    'token-env'?: string;
    cert?: string;
    key?: string;
    ca?: string;
    'insecure-no-auth'?: boolean;
  },
  io: CliIO,
): RemoteServerAuth {
  const tls = [values.cert, values.key, values.ca];
  const chosen = [values['token-env'] !== undefined, tls.some(Boolean), values['insecure-no-auth'] === true];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('choose one of --token-env, --cert/--key/--ca and --insecure-no-auth');
  }
  if (values['token-env'] !== undefined) {
    const token = io.env[values['token-env']];
    if (!token) throw new UsageError(`the environment variable ${values['token-env']} (--token-env) is empty or unset`);
    return { type: 'bearer', token };
  }
  if (values.cert || values.key || values.ca) {
    if (!values.cert || !values.key || !values.ca) throw new UsageError('mTLS needs all of --cert, --key and --ca');
    return {
      type: 'mtls',
      certPath: resolve(io.cwd, values.cert),
      keyPath: resolve(io.cwd, values.key),
      caPath: resolve(io.cwd, values.ca),
    };
  }
  if (values['insecure-no-auth']) return { type: 'none' };
  throw new UsageError('one of --token-env, --cert/--key/--ca or --insecure-no-auth is required');
}

/** Starts listening; a port in use or an address that cannot be taken is a usage error that says which. */
async function listenOrSay<T>(host: string, port: number | undefined, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on ${host} is in use: pick another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${host} is not an address of this machine`);
    if (code === 'EACCES') throw new UsageError(`port ${port} on ${host} needs privileges: use a port above 1023`);
    throw error;
  }
}
