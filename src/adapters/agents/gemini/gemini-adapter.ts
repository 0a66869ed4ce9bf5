import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectGeminiAuth, GEMINI_SECRET_ENV } from './gemini-auth.ts';
import { geminiPlan } from './gemini-plan.ts';
import { geminiSessionFiles } from './gemini-session-files.ts';
import { geminiTranslator } from './gemini-translator.ts';

/** Google's Gemini CLI, headless: `gemini -p '' --output-format stream-json`, the prompt on stdin. */
export const geminiAdapter = defineCliAdapter({
  id: 'gemini',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: {
    shell: ['run_shell_command'],
    write_file: ['write_file', 'replace'],
    read_file: ['read_file', 'read_many_files'],
  },
  displayName: 'Gemini CLI',
  // True to Gemini CLI 0.61.0 as run live (src/adapters/agents/gemini/README.md).
  capabilities: {
    // `--resume <session id>` continues a session under the same id; there is no fork flag.
    resume: true,
    fork: false,
    // thinkingConfig through settings (modelConfigs.customOverrides); thoughts never reach the stream.
    thinking: 'model-dependent',
    // settings.json `mcpServers.<name>.httpUrl` + `headers`, written to a per-run overlay.
    mcp: true,
    // Headless Gemini CLI cannot ask: tools needing approval are withheld; the policy maps to
    // `--approval-mode` and a `--policy` file.
    approvals: 'none',
    // JSONL chats under ~/.gemini/tmp/<project>/chats/
    sessionPersistence: 'file',
    // Text deltas and whole tool calls; no thinking, no tool input deltas.
    streaming: 'text',
  },
  program: {
    command: 'gemini',
    // `--output-format stream-json`, `--skip-trust` and `--policy`.
    minVersion: '0.30.0',
    npmPackage: '@google/gemini-cli',
    install: [{ type: 'brew', command: 'brew install gemini-cli', platforms: ['darwin', 'linux'] }],
    testedVersion: '0.61.0',
    verifiedLive: true,
  },
  costModel: 'google/gemini-2.5-pro',
  secretEnv: GEMINI_SECRET_ENV,
  // `findEnvFile` loads the first `.gemini/.env` or `.env` from the working directory upwards into
  // its environment (`GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL`, …).
  keyInputs: { 'gemini-api-key': 'GEMINI_API_KEY' },
  readsFromRepository: ['.env'],
  sessionDir: () => join(homedir(), '.gemini', 'tmp'),
  sessionFiles: geminiSessionFiles,
  detectAuth: detectGeminiAuth,
  plan: geminiPlan,
  translator: geminiTranslator,
});
