import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectQwenAuth, QWEN_SECRET_ENV } from './qwen-auth.ts';
import { qwenPlan } from './qwen-plan.ts';
import { qwenSessionFiles } from './qwen-session-files.ts';
import { qwenTranslator } from './qwen-translator.ts';

/** Alibaba's Qwen Code (a Gemini CLI fork), headless: `qwen --output-format stream-json`, the prompt on stdin. */
export const qwenAdapter = defineCliAdapter({
  id: 'qwen',
  // Headless, `ask` rules are refused; over ACP Qwen Code asks.
  approvingMode: 'qwen-acp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: {
    shell: ['run_shell_command'],
    write_file: ['write_file', 'edit'],
    read_file: ['read_file', 'read_many_files'],
  },
  displayName: 'Qwen Code',
  // True to Qwen Code 0.24.4 as run live (src/adapters/agents/qwen/README.md).
  capabilities: {
    // `--resume <id>`; `--fork-session` with it.
    resume: true,
    fork: true,
    // `model.generationConfig.reasoning.effort` (low … max, clamped per model); thinking blocks stream.
    thinking: 'model-dependent',
    // `--mcp-config` (streamable HTTP `httpUrl` with headers).
    mcp: true,
    // Headless without `--input-format stream-json` it cannot ask: the policy maps to
    // `--approval-mode`, `--allowed-tools` and `--exclude-tools`.
    approvals: 'none',
    // JSONL chats under ~/.qwen/projects/<cwd with / → ->/chats/<session id>.jsonl
    sessionPersistence: 'file',
    // `--include-partial-messages`: text, thinking and tool input deltas.
    streaming: 'full',
  },
  program: {
    command: 'qwen',
    // stream-json output with `--include-partial-messages`, `--mcp-config` and `--fork-session`.
    minVersion: '0.20.0',
    npmPackage: '@qwen-code/qwen-code',
    testedVersion: '0.24.4',
    verifiedLive: true,
  },
  costModel: 'alibaba/qwen3-coder-plus',
  secretEnv: QWEN_SECRET_ENV,
  // `findEnvFiles` loads `.qwen/.env` and `.env` as Gemini CLI does, with the workspace trusted.
  readsFromRepository: ['.env'],
  sessionDir: () => join(homedir(), '.qwen', 'projects'),
  sessionFiles: qwenSessionFiles,
  detectAuth: detectQwenAuth,
  plan: qwenPlan,
  translator: qwenTranslator,
});
