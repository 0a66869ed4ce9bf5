import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { CURSOR_KEY_ENV, detectCursorAuth } from './cursor-auth.ts';
import { cursorPlan } from './cursor-plan.ts';
import { cursorTranslator } from './cursor-translator.ts';

/**
 * Cursor's agent CLI, headless: `cursor-agent -p --output-format stream-json`. Its `command` option
 * names the executable (default `cursor-agent`; newer installs also name it `agent`).
 */
export const cursorAdapter = defineCliAdapter({
  id: 'cursor',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['shell'], write_file: ['write', 'edit', 'delete'], read_file: ['read'] },
  displayName: 'Cursor Agent CLI',
  // Evidence-only (src/adapters/agents/cursor/README.md): Cursor's CLI is installed with `curl https://cursor.com/install`,
  // not from npm (the npm package `cursor-agent` is an unrelated project), so it could not be run here.
  capabilities: {
    // `--resume <chatId>`; no fork flag.
    resume: true,
    fork: false,
    // Thinking models print `thinking` deltas; the effort is part of the model name, no flag.
    thinking: 'model-dependent',
    // Cursor speaks MCP, but only from `.cursor/mcp.json` (project or home): no flag to add the run's
    // server without editing the user's config or the workspace, so the run's tools are not offered.
    mcp: false,
    // No approval hook in print mode: the policy becomes `--force` or not.
    approvals: 'none',
    sessionPersistence: 'sqlite',
    streaming: 'full',
  },
  program: {
    command: 'cursor-agent',
    // Date-based versions (`2025.09.18-7ae6800`); stream-json with tool_call events since mid-2025.
    minVersion: '2025.8.0',
    install: [
      { type: 'curl', command: 'curl https://cursor.com/install -fsS | bash', platforms: ['darwin', 'linux'] },
      {
        type: 'curl',
        command: "irm 'https://cursor.com/install?win32=true' | iex",
        platforms: ['win32'],
        notes: 'PowerShell',
      },
    ],
    verifiedLive: false,
  },
  secretEnv: CURSOR_KEY_ENV,
  // It reads nothing from the repository beyond the common set (checked against the CLI).
  keyInputs: { 'cursor-api-key': 'CURSOR_API_KEY' },
  readsFromRepository: [],
  sessionDir: () => join(homedir(), '.cursor', 'chats'),
  detectAuth: detectCursorAuth,
  plan: (ctx, { command }) => cursorPlan(command, ctx),
  translator: cursorTranslator,
});
