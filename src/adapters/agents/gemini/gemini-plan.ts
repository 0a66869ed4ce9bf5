import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';
import { geminiPolicyToml } from './gemini-policy.ts';
import { readSettings, selectedAuthType, writeSettingsOverlay } from './gemini-settings.ts';

/** The MCP server name the run's tool host gets: its tools are `mcp_agentmux_<tool>`. */
export const GEMINI_MCP_SERVER = 'agentmux';
/** The environment variable the settings' `Authorization` header reads the bearer token from (never on disk). */
export const GEMINI_MCP_TOKEN_ENV = 'AGENT_MUX_MCP_TOKEN';

/**
 * `thinkingConfig` for an effort: Gemini 3 models take `thinkingLevel` (LOW/HIGH), Gemini 2.5
 * models a token budget (1024 / 8192 / 24576 / 32768).
 */
export function geminiThinkingConfig(effort: ThinkingEffort, model: string | undefined): Record<string, unknown> {
  // The CLI's default model (`auto`) routes to Gemini 3 models; other families (2.x) take budgets.
  const usesLevels = model === undefined || !/gemini-[12]\./i.test(model);
  if (usesLevels)
    return { thinkingLevel: effort === 'low' || effort === 'medium' ? 'LOW' : 'HIGH', includeThoughts: true };
  const budget = { low: 1024, medium: 8192, high: 24576, max: 32768 }[effort];
  return { thinkingBudget: budget, includeThoughts: true };
}

/** The settings a run adds to the user's (MCP server, thinking, turn limit, API-key auth), or undefined when none. */
export function geminiRunSettings(
  ctx: LaunchContext,
  user: { authType?: string; model?: string } = {},
): Record<string, unknown> | undefined {
  const { request } = ctx;
  const env = { ...ctx.env, ...(request.env ?? {}) };
  // The model the CLI will use: `--model`, else `GEMINI_MODEL`, else settings' `model.name`.
  const model = request.model ?? env.GEMINI_MODEL ?? user.model;
  const settings: Record<string, unknown> = {};
  if (ctx.mcpUrl) {
    settings.mcpServers = {
      [GEMINI_MCP_SERVER]: {
        httpUrl: ctx.mcpUrl,
        headers: { Authorization: `Bearer \${${GEMINI_MCP_TOKEN_ENV}}` },
        // The run's tool host applies the run's policy itself.
        trust: true,
      },
    };
  }
  if (request.thinkingEffort) {
    settings.modelConfigs = {
      customOverrides: [
        {
          match: { overrideScope: 'core' },
          modelConfig: {
            generateContentConfig: { thinkingConfig: geminiThinkingConfig(request.thinkingEffort, model) },
          },
        },
      ],
    };
  }
  if (request.maxTurns !== undefined) settings.model = { maxSessionTurns: request.maxTurns };
  const hasKey = Boolean(env.GEMINI_API_KEY || env.GOOGLE_API_KEY);
  if (!user.authType && hasKey) settings.security = { auth: { selectedType: 'gemini-api-key' } };
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/**
 * `gemini -p '' --output-format stream-json --skip-trust …` with the prompt on stdin (`-p` is
 * appended to stdin, so an empty one leaves the prompt as written). Settings the CLI takes only
 * from settings.json go into a per-run overlay of `~/.gemini` (`GEMINI_CLI_HOME`, see
 * gemini-settings.ts); the policy file, the system prompt file and the overlay live in one temp
 * folder that `cleanup` removes.
 */
export function geminiPlan(ctx: LaunchContext, options: { command: string }): SpawnPlan {
  const { request } = ctx;
  const args = ['-p', '', '--output-format', 'stream-json', '--skip-trust'];
  const env: Record<string, string> = {};
  const runEnv = { ...ctx.env, ...(request.env ?? {}) };
  const temp = new PlanTempDir('agent-mux-gemini-');

  if (request.model) args.push('--model', request.model);
  if (request.resumeSessionId) args.push('--resume', request.resumeSessionId);

  const policy = ctx.policy ?? { default: 'ask' as const };
  args.push('--approval-mode', (policy.default ?? 'ask') === 'allow' ? 'yolo' : 'default');
  if ((policy.rules ?? []).length > 0 || policy.default === 'deny') {
    const file = temp.write('agent-mux-policy.toml', geminiPolicyToml(policy));
    args.push('--policy', file);
  }

  if (request.systemPrompt) {
    env.GEMINI_SYSTEM_MD = temp.write('system.md', request.systemPrompt);
  }

  const realHome = runEnv.GEMINI_CLI_HOME || runEnv.HOME || homedir();
  const userSettings = readSettings(join(realHome, '.gemini', 'settings.json'));
  const userModel = (userSettings?.model as { name?: unknown } | undefined)?.name;
  const settings = geminiRunSettings(ctx, {
    authType: selectedAuthType(userSettings),
    model: typeof userModel === 'string' ? userModel : undefined,
  });
  if (settings) {
    const overlay = writeSettingsOverlay(realHome, temp.path, settings);
    if (overlay) env.GEMINI_CLI_HOME = overlay;
  }
  if (ctx.mcpUrl && env.GEMINI_CLI_HOME) env[GEMINI_MCP_TOKEN_ENV] = ctx.mcpToken;

  const plan: SpawnPlan = {
    command: options.command,
    args,
    env,
    stdin: request.prompt,
    protocol: 'json-lines',
  };
  const cleanup = temp.cleanup();
  if (cleanup) plan.cleanup = cleanup;
  return plan;
}
