import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { CLAUDE_KEY_INPUTS, CLAUDE_SECRET_ENV, detectClaudeAuth } from './claude-auth.ts';
import { claudePlan } from './claude-plan.ts';
import { claudeSessionFiles } from './claude-session-files.ts';
import { claudeTranslator } from './claude-translator.ts';

/** Anthropic's Claude Code, headless: `claude -p --output-format stream-json --verbose`, prompt on stdin. */
export const claudeAdapter = defineCliAdapter({
  id: 'claude',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['Bash'], write_file: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'], read_file: ['Read'] },
  displayName: 'Claude Code',
  // True to Claude Code 2.1.330 as recorded live (src/adapters/agents/claude/README.md).
  capabilities: {
    // `--resume <id>`; `--fork-session` with it gives the copy a new session id.
    resume: true,
    fork: true,
    // `--effort` on adaptive-thinking models, `MAX_THINKING_TOKENS` on budgeted ones; none on older models.
    thinking: 'model-dependent',
    // `--mcp-config` (streamable HTTP with an Authorization header).
    mcp: true,
    // `--permission-prompt-tool mcp__agent-mux__approval_prompt`: Claude Code's own hook asks the run's approvals.
    approvals: 'native',
    // JSONL transcripts under ~/.claude/projects/<cwd with / → ->/<session id>.jsonl
    sessionPersistence: 'file',
    // One `claude -p` process per run: the prompt on stdin, the process exits after its `result`.
    execModel: 'run-to-completion',
    // Text, thinking and tool input deltas (`--include-partial-messages`).
    streaming: 'full',
    // `--input-format stream-json`: a message during the run is taken at its next step (claude-plan.ts).
    steering: true,
  },
  program: {
    command: 'claude',
    // Conservative: stream-json with partial messages, `--fork-session`, `--permission-prompt-tool` and
    // MCP over HTTP are all in 2.x; only 2.1.330 was recorded. `--effort` (thinkingEffort) is 2.1-era.
    minVersion: '2.0.0',
    npmPackage: '@anthropic-ai/claude-code',
    install: [
      { type: 'curl', command: 'curl -fsSL https://claude.ai/install.sh | bash', platforms: ['darwin', 'linux'] },
      { type: 'brew', command: 'brew install --cask claude-code', platforms: ['darwin'] },
    ],
    testedVersion: '2.1.330',
    verifiedLive: true,
  },
  // Claude Code reports USD itself; this prices only the per-message increments before its result.
  costModel: 'anthropic/claude-sonnet-4-5',
  secretEnv: CLAUDE_SECRET_ENV,
  // It reads nothing from the repository beyond the common set (checked against the CLI).
  keyInputs: CLAUDE_KEY_INPUTS,
  readsFromRepository: [],
  // `--tools "" --strict-mcp-config` with the run's MCP server: its relayed tools are its only ones (claude-plan.ts).
  callerTools: 'mcp',
  sessionDir: () => join(homedir(), '.claude', 'projects'),
  sessionFiles: claudeSessionFiles,
  detectAuth: detectClaudeAuth,
  plan: claudePlan,
  translator: claudeTranslator,
});
