import { join } from 'node:path';
import { z } from 'zod';
import { AppSettingsError } from './app-settings-error.ts';
import { SCHEMA_NAME } from './store/postgres-sql.ts';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** `name=N,name=N` → `{ name: N }` (per-adapter limits). */
const limitMap = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const limits: Record<string, number> = {};
    for (const part of text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^((?:agent:)?[\w.-]+)\s*=\s*(\d+)$/.exec(part);
      if (match === null || Number(match[2]) < 1) {
        ctx.addIssue({ code: 'custom', message: `"${part}" is not <adapter>=<positive integer>` });
        return z.NEVER;
      }
      limits[match[1]!] = Number(match[2]);
    }
    return limits;
  });

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  AGENT_MUX_DB_SCHEMA: z.string().regex(SCHEMA_NAME, 'expected a lower-case SQL identifier').optional(),
  AGENT_MUX_DATA_DIR: z.string().min(1).default('./data'),
  AGENT_MUX_WORKERS: z.coerce.number().int().min(0).default(2),
  AGENT_MUX_WORK_DIR: z.string().min(1).optional(),
  AGENT_MUX_MAX_WORKSPACE_MB: positiveInt(10_240),
  AGENT_MUX_LEASE_SECONDS: positiveInt(60),
  AGENT_MUX_GIT_BASE_URL: z.string().min(1).default('https://github.com'),
  AGENT_MUX_MAX_RUNS_PER_REPO: positiveInt(2),
  AGENT_MUX_MAX_RUNS_PER_ADAPTER: positiveInt(4),
  AGENT_MUX_MAX_RUNS_PER_INSTALLATION: positiveInt(4),
  AGENT_MUX_STORE_QUOTA_MB: positiveInt(1024),
  AGENT_MUX_INSTALLATION_DAILY_USD: z.coerce.number().positive().optional(),
  AGENT_MUX_INSTALLATION_DAILY_TOKENS: z.coerce.number().int().positive().optional(),
  AGENT_MUX_MAX_RUN_MB: positiveInt(2048),
  AGENT_MUX_ADAPTER_LIMITS: limitMap,
  AGENT_MUX_GITHUB_THROTTLE: z.enum(['on', 'off']).default('on'),
  AGENT_MUX_START_TIMEOUT_SECONDS: z.coerce.number().min(0).default(300),
  AGENT_MUX_FENCE: z.enum(['bwrap', 'off']).default('bwrap'),
  AGENT_MUX_FENCE_READ_ONLY: z.string().default(''),
  AGENT_MUX_FENCE_NETWORK: z.enum(['own', 'host']).default('own'),
  AGENT_MUX_AGENT_ENV: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected NAME,NAME (environment variable names)'))),
});

/** The app's settings, read from the environment by `readAppSettings`. */
export interface AppSettings {
  /** `postgres://…` selects the PostgreSQL store (several replicas share one queue); unset: SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  /** The PostgreSQL schema of the store's tables (`AGENT_MUX_DB_SCHEMA`, default `agent_mux`). */
  databaseSchema?: string;
  /** Where the SQLite file lives (`AGENT_MUX_DATA_DIR`, default `./data`). */
  dataDir: string;
  /** Worker loops in this process (`AGENT_MUX_WORKERS`, default 2; 0 makes a replica that only receives webhooks). */
  workers: number;
  /** Where runs' fresh clones are made, one directory per run (`AGENT_MUX_WORK_DIR`, default `<dataDir>/work`). */
  workDir: string;
  /** No run starts while the work dir holds more than this (`AGENT_MUX_MAX_WORKSPACE_MB`, default 10240). */
  maxWorkspaceBytes: number;
  /** How long a claim lasts without renewal (`AGENT_MUX_LEASE_SECONDS`, default 60); renewed every third of it. */
  leaseMs: number;
  /**
   * Where repositories are cloned from: `<gitBaseUrl>/<owner>/<repo>.git` (`AGENT_MUX_GIT_BASE_URL`,
   * default `https://github.com`; a GHES URL, or a local directory in tests).
   */
  gitBaseUrl: string;
  /** Runs in flight per repository (`AGENT_MUX_MAX_RUNS_PER_REPO`, default 2). */
  perRepo: number;
  /** Runs in flight per adapter id unless listed (`AGENT_MUX_MAX_RUNS_PER_ADAPTER`, default 4). */
  defaultPerAdapter: number;
  /**
   * Runs in flight per installation (`AGENT_MUX_MAX_RUNS_PER_INSTALLATION`, default 4); claims go
   * round the installations with queued runs whatever it is. Unset here: no cap.
   */
  perInstallation?: number;
  /**
   * The most one installation's conversations keep in the store together (`AGENT_MUX_STORE_QUOTA_MB`,
   * default 1024): its least recently saved ones make room. Unset here: no quota.
   */
  storeQuotaBytes?: number;
  /**
   * What all runs of one installation may spend per UTC day (`AGENT_MUX_INSTALLATION_DAILY_USD`,
   * `AGENT_MUX_INSTALLATION_DAILY_TOKENS`), beside each repository's `limits.budget.daily`. Unset: none.
   */
  installationDaily?: { usd?: number; tokens?: number };
  /**
   * The most one run's clone and HOME may take on disk (`AGENT_MUX_MAX_RUN_MB`, default 2048), in
   * allocated blocks, measured every few seconds: past it the run fails. Unset here: no cap.
   */
  maxRunBytes?: number;
  /** Per-adapter limits, `AGENT_MUX_ADAPTER_LIMITS=agent:gpu-box=1,codex=3` (keys: `checkAdapterLimits`). */
  perAdapter: Record<string, number>;
  /**
   * Probot's client-side write spacing for installations (`AGENT_MUX_GITHUB_THROTTLE=on|off`, default `on`):
   * `off` (false) for a GitHub stand-in in tests or a GHES without secondary rate limits. Unset: on.
   */
  githubThrottle?: boolean;
  /**
   * How long start-up (`GET /app`, opening the store) may keep failing before the process exits with
   * status 1 (`AGENT_MUX_START_TIMEOUT_SECONDS`, default 300; 0: retry for ever). Unset: 300 s.
   */
  startTimeoutMs?: number;
  /**
   * How agents are fenced off (`AGENT_MUX_FENCE=bwrap|off`, default `bwrap`; unset here: `bwrap`):
   * each agent runs in bubblewrap with its workspace and a per-run HOME writable, the system
   * read-only, and nothing else of the host (see docs/app.md, "Fence"). `off` only when chosen.
   */
  fence?: 'bwrap' | 'off';
  /** More paths the fence shows read-only, e.g. the agent CLIs' install dirs (`AGENT_MUX_FENCE_READ_ONLY=/a:/b`). */
  fenceReadOnly?: readonly string[];
  /**
   * The fenced agent's network (`AGENT_MUX_FENCE_NETWORK=own|host`, default `own`; unset here: `own`):
   * `own`, a network namespace with egress (slirp4netns) but not the host's loopback, of which only
   * the run's MCP server and loopback model endpoints in the agent's environment are relayed in;
   * `host`, the host's network, loopback included (docs/security.md says what that gives up).
   */
  fenceNetwork?: 'own' | 'host';
  /** Variables of the app's environment agents get besides the allowlist (`AGENT_MUX_AGENT_ENV=NAME,NAME`). */
  agentEnvExtra?: readonly string[];
}

/**
 * Reads and checks the app's settings from the environment.
 *
 * @throws AppSettingsError naming every invalid variable.
 */
export function readAppSettings(env: Record<string, string | undefined> = process.env): AppSettings {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(defined);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new AppSettingsError(problems);
  }
  const s = parsed.data;
  return {
    databaseUrl: s.DATABASE_URL,
    databaseSchema: s.AGENT_MUX_DB_SCHEMA,
    dataDir: s.AGENT_MUX_DATA_DIR,
    workers: s.AGENT_MUX_WORKERS,
    workDir: s.AGENT_MUX_WORK_DIR ?? join(s.AGENT_MUX_DATA_DIR, 'work'),
    maxWorkspaceBytes: s.AGENT_MUX_MAX_WORKSPACE_MB * 1024 * 1024,
    leaseMs: s.AGENT_MUX_LEASE_SECONDS * 1000,
    gitBaseUrl: s.AGENT_MUX_GIT_BASE_URL.replace(/\/+$/, ''),
    perRepo: s.AGENT_MUX_MAX_RUNS_PER_REPO,
    defaultPerAdapter: s.AGENT_MUX_MAX_RUNS_PER_ADAPTER,
    perInstallation: s.AGENT_MUX_MAX_RUNS_PER_INSTALLATION,
    storeQuotaBytes: s.AGENT_MUX_STORE_QUOTA_MB * 1024 * 1024,
    ...(s.AGENT_MUX_INSTALLATION_DAILY_USD === undefined && s.AGENT_MUX_INSTALLATION_DAILY_TOKENS === undefined
      ? {}
      : {
          installationDaily: {
            ...(s.AGENT_MUX_INSTALLATION_DAILY_USD === undefined ? {} : { usd: s.AGENT_MUX_INSTALLATION_DAILY_USD }),
            ...(s.AGENT_MUX_INSTALLATION_DAILY_TOKENS === undefined
              ? {}
              : { tokens: s.AGENT_MUX_INSTALLATION_DAILY_TOKENS }),
          },
        }),
    maxRunBytes: s.AGENT_MUX_MAX_RUN_MB * 1024 * 1024,
    perAdapter: s.AGENT_MUX_ADAPTER_LIMITS,
    startTimeoutMs: s.AGENT_MUX_START_TIMEOUT_SECONDS * 1000,
    fence: s.AGENT_MUX_FENCE,
    fenceReadOnly: s.AGENT_MUX_FENCE_READ_ONLY.split(':').filter(Boolean),
    fenceNetwork: s.AGENT_MUX_FENCE_NETWORK,
    agentEnvExtra: s.AGENT_MUX_AGENT_ENV,
    // Only when turned off, so that the settings of a default environment stay as they were.
    ...(s.AGENT_MUX_GITHUB_THROTTLE === 'off' ? { githubThrottle: false } : {}),
  };
}
