import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionPolicy } from '../../../core/tools/permission-policy.ts';

/** The MCP server name the run's tool host gets in OpenClaw's `mcp.servers`. */
export const OPENCLAW_MCP_SERVER = 'agent-mux';
/** The env var the MCP bearer token travels in (the config refers to it as `${…}`, never holding the secret). */
export const OPENCLAW_MCP_TOKEN_ENV = 'AGENT_MUX_MCP_TOKEN';

/** `--thinking` levels OpenClaw accepts (`off | minimal | low | medium | high | xhigh | adaptive | max | ultra`). */
export const openclawThinking: Record<ThinkingEffort, string> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  max: 'max',
};

/** The home the run's program sees (the run's env may set its own HOME). */
export function openclawHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.HOME || homedir();
}

/** The user's OpenClaw config file (`OPENCLAW_CONFIG_PATH`, else `$OPENCLAW_STATE_DIR/openclaw.json`, else `~/.openclaw/openclaw.json`). */
export function openclawConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.OPENCLAW_CONFIG_PATH) return env.OPENCLAW_CONFIG_PATH;
  const stateDir = env.OPENCLAW_STATE_DIR || join(openclawHome(env), '.openclaw');
  return join(stateDir, 'openclaw.json');
}

/**
 * Where agent-mux keeps OpenClaw sessions: `sessions/<sessionId>/` is the `--state-dir` a session
 * ran in. `agent exec` holds an exclusive lock on its state dir, so each run gets its own: a new
 * run works in a temp dir, and when it reported a session the dir moves here (plan.cleanup).
 */
export function openclawRunsDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(openclawHome(env), '.cache', 'agent-mux', 'openclaw');
}

export function sessionStateDir(env: Readonly<Record<string, string | undefined>>, sessionId: string): string {
  return join(openclawRunsDir(env), 'sessions', encodeURIComponent(sessionId));
}

/** Session ids the controller saw, by run id, for the plan's cleanup. */
const sessionsByRun = new Map<string, string>();

/** Called by the controller when a new run reports its session id. */
export function rememberSession(runId: string, sessionId: string): void {
  sessionsByRun.set(runId, sessionId);
}

async function keepSession(
  runId: string,
  env: Readonly<Record<string, string | undefined>>,
  stateDir: string,
): Promise<void> {
  const sessionId = sessionsByRun.get(runId);
  sessionsByRun.delete(runId);
  if (!sessionId) return;
  const target = sessionStateDir(env, sessionId);
  await mkdir(dirname(target), { recursive: true });
  try {
    await rename(stateDir, target);
  } catch {
    // Another file system (tmp on tmpfs): copy, then the temp dir goes with the rest.
    await cp(stateDir, target, { recursive: true });
  }
}

/**
 * Tool policy as OpenClaw config (`tools.allow` / `tools.deny`, case-insensitive, `*` wildcards, deny
 * wins). `agent exec` cannot ask anyone at run time, so `ask` is mapped to deny. Rules with `when`
 * conditions cannot be expressed: a conditional deny/ask denies the tool, a conditional allow is dropped.
 */
export function openclawToolPolicy(
  policy: PermissionPolicy | undefined,
): { allow?: string[]; deny?: string[] } | undefined {
  if (!policy) return undefined;
  const rules = policy.rules ?? [];
  const deny = [...new Set(rules.filter((r) => r.decision !== 'allow').map((r) => r.tool))];
  const allow = [...new Set(rules.filter((r) => r.decision === 'allow' && r.when === undefined).map((r) => r.tool))];
  const fallback = policy.default ?? 'ask';
  if (fallback === 'allow') return deny.length > 0 ? { deny } : undefined;
  // Default deny/ask: only the explicitly allowed tools run.
  return allow.length > 0 ? { allow, ...(deny.length > 0 ? { deny } : {}) } : { deny: ['*'] };
}

interface Overlay {
  $include?: string;
  tools?: { allow?: string[]; deny?: string[] };
  mcp?: unknown;
  agents?: unknown;
}

/**
 * `openclaw agent exec --json` for a new turn (prompt on stdin, `--cwd`, one `--state-dir` per run);
 * `openclaw agent --local --session-id <id> --json` to continue a session (exec has no resume).
 * Policy, MCP and the resumed turn's workspace go into an overlay config in a temp dir that
 * `$include`s the user's own config, passed with `--config` / `OPENCLAW_CONFIG_PATH`.
 */
export async function openclawPlan(ctx: LaunchContext, command: string): Promise<SpawnPlan> {
  const { request } = ctx;
  const env: Record<string, string> = {};
  const baseConfig = openclawConfigPath(ctx.env);
  const resume = request.resumeSessionId;
  const tools = openclawToolPolicy(ctx.policy);

  const overlay: Overlay = {};
  if (tools) overlay.tools = tools;
  if (ctx.mcpUrl) {
    overlay.mcp = {
      servers: {
        [OPENCLAW_MCP_SERVER]: {
          url: ctx.mcpUrl,
          transport: 'streamable-http',
          ...(ctx.mcpToken ? { headers: { Authorization: `Bearer \${${OPENCLAW_MCP_TOKEN_ENV}}` } } : {}),
        },
      },
    };
    if (ctx.mcpToken) env[OPENCLAW_MCP_TOKEN_ENV] = ctx.mcpToken;
  }
  // `agent --local` works in the agent's workspace, not a --cwd: point it at the run's workspace.
  if (resume) overlay.agents = { defaults: { workspace: request.cwd, skipBootstrap: true } };

  const temp = await mkdtemp(join(tmpdir(), 'agent-mux-openclaw-'));
  let configFile: string | undefined;
  if (Object.keys(overlay).length > 0) {
    if (existsSync(baseConfig)) {
      overlay.$include = baseConfig;
      const roots = ctx.env.OPENCLAW_INCLUDE_ROOTS;
      env.OPENCLAW_INCLUDE_ROOTS = roots ? `${roots}${delimiter}${dirname(baseConfig)}` : dirname(baseConfig);
    }
    configFile = join(temp, 'openclaw.json');
    writeFileSync(configFile, `${JSON.stringify(overlay, null, 2)}\n`, { mode: 0o600 });
  }

  const prompt = request.systemPrompt ? `${request.systemPrompt}\n\n---\n\n${request.prompt}` : request.prompt;
  const common: string[] = ['--json'];
  if (request.model) common.push('--model', request.model);
  if (request.thinkingEffort) common.push('--thinking', openclawThinking[request.thinkingEffort]);

  if (resume) {
    const promptFile = join(temp, 'prompt.md');
    writeFileSync(promptFile, prompt, { mode: 0o600 });
    // The session's own state dir when agent-mux started it; else OpenClaw's default state.
    const stateDir = sessionStateDir(ctx.env, resume);
    if (existsSync(stateDir)) env.OPENCLAW_STATE_DIR = stateDir;
    // A moved state dir would also move the default config path: keep the user's (or the overlay).
    env.OPENCLAW_CONFIG_PATH = configFile ?? baseConfig;
    return {
      command,
      args: ['agent', '--local', '--session-id', resume, '--message-file', promptFile, ...common],
      env,
      cwd: request.cwd,
      protocol: 'text',
      cleanup: () => rm(temp, { recursive: true, force: true }),
    };
  }

  const stateDir = join(temp, 'state');
  mkdirSync(stateDir);
  const args = ['agent', 'exec', '--message-file', '-', '--cwd', request.cwd, '--state-dir', stateDir, ...common];
  if (configFile) args.push('--config', configFile);
  const cleanup = async () => {
    try {
      await keepSession(ctx.runId, ctx.env, stateDir);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  };
  return { command, args, env, cwd: request.cwd, stdin: prompt, protocol: 'text', cleanup };
}
