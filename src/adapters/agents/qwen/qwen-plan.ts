import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';
import { toolLists } from '../gemini/gemini-policy.ts';
import { mergeSettings, readSettings } from '../gemini/gemini-settings.ts';

/** The MCP server name the run's tool host gets: its tools are `mcp__agentmux__<tool>`. */
export const QWEN_MCP_SERVER = 'agentmux';

/** Qwen Code's reasoning tiers (`low`, `medium`, `high`, `xhigh`, `max`, clamped per model by the CLI). */
export function qwenReasoningEffort(effort: ThinkingEffort): string {
  return effort;
}

/** The system settings file a run uses (`QWEN_CODE_SYSTEM_SETTINGS_PATH`), default /etc/qwen-code/settings.json. */
function systemSettingsPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.QWEN_CODE_SYSTEM_SETTINGS_PATH) return env.QWEN_CODE_SYSTEM_SETTINGS_PATH;
  if (process.platform === 'darwin') return '/Library/Application Support/QwenCode/settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\qwen-code\\settings.json';
  return '/etc/qwen-code/settings.json';
}

/**
 * `qwen --output-format stream-json --include-partial-messages` with the prompt on stdin (no
 * positional prompt: stdin is the prompt). The policy maps to `--approval-mode` and
 * `--allowed-tools` / `--exclude-tools`; MCP to `--mcp-config <file>`; the thinking effort to
 * `model.generationConfig.reasoning.effort` in a system settings file (`QWEN_CODE_SYSTEM_SETTINGS_PATH`,
 * the machine's own system settings merged in). Files live in one temp folder that `cleanup` removes.
 */
export function qwenPlan(ctx: LaunchContext, options: { command: string }): SpawnPlan {
  const { request } = ctx;
  const args = ['--output-format', 'stream-json', '--include-partial-messages'];
  const env: Record<string, string> = {};
  const runEnv = { ...ctx.env, ...(request.env ?? {}) };
  const temp = new PlanTempDir('agent-mux-qwen-');

  if (request.model) args.push('--model', request.model);
  if (request.systemPrompt) args.push('--append-system-prompt', request.systemPrompt);
  if (request.maxTurns !== undefined) args.push('--max-session-turns', String(request.maxTurns));
  if (request.resumeSessionId) {
    args.push('--resume', request.resumeSessionId);
    if (request.fork) args.push('--fork-session');
  }

  const lists = toolLists(ctx.policy ?? { default: 'ask' });
  args.push('--approval-mode', lists.approvalMode);
  if (lists.allow.length > 0) args.push('--allowed-tools', ...lists.allow);
  if (lists.deny.length > 0) args.push('--exclude-tools', ...lists.deny);

  if (ctx.mcpUrl) {
    const config = {
      mcpServers: {
        [QWEN_MCP_SERVER]: { httpUrl: ctx.mcpUrl, headers: { Authorization: `Bearer ${ctx.mcpToken}` }, trust: true },
      },
    };
    args.push('--mcp-config', temp.writeJson('mcp.json', config));
  }

  if (request.thinkingEffort) {
    const system = readSettings(systemSettingsPath(runEnv)) ?? {};
    const settings = mergeSettings(system, {
      model: { generationConfig: { reasoning: { effort: qwenReasoningEffort(request.thinkingEffort) } } },
    });
    env.QWEN_CODE_SYSTEM_SETTINGS_PATH = temp.writeJson('system-settings.json', settings);
  }

  const plan: SpawnPlan = { command: options.command, args, env, stdin: request.prompt, protocol: 'json-lines' };
  const cleanup = temp.cleanup();
  if (cleanup) plan.cleanup = cleanup;
  return plan;
}
