import type { AuthStatus } from '../../../core/adapter/index.ts';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectOpenCodeStyleAuth } from '../opencode/opencode-auth.ts';
import { type OpenCodeFlavor, openCodeFlavorNamed } from '../opencode/opencode-plan.ts';
import { openCodeStyleCli } from '../opencode/opencode-style-cli.ts';

/**
 * Kilo Code's CLI is an OpenCode fork: `kilo run` takes OpenCode's flags and prints the same
 * `--format json` events (step_start, text, reasoning, tool_use, step_finish, error), so the plan and
 * translator are OpenCode's with Kilo's names (`kilo`, `KILO_CONFIG_CONTENT`, `~/.local/share/kilo`).
 * Its capabilities are OpenCode's (see openCodeStyleCli).
 */
/** Kilo's names for OpenCode's plan (`kilo`, `KILO_CONFIG_CONTENT`, …); its default agent is `code`. */
export const kiloFlavor: OpenCodeFlavor = openCodeFlavorNamed('kilo', 'code');

/** Kilo's auth: OpenCode's look, in Kilo's data dir and with `KILO_API_KEY`. */
export function detectKiloAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  return detectOpenCodeStyleAuth('kilo', ['KILO_API_KEY'], env);
}

/** Kilo Code CLI, headless: `kilo run --format json …`, prompt on stdin. */
export const kiloAdapter = defineCliAdapter({
  id: 'kilo',
  // `kilo run` auto-rejects every `ask`, as OpenCode does; over ACP Kilo asks.
  approvingMode: 'kilo-acp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['bash'], write_file: ['write', 'edit', 'patch'], read_file: ['read'] },
  displayName: 'Kilo Code CLI',
  program: {
    command: 'kilo',
    minVersion: '7.0.0',
    npmPackage: '@kilocode/cli',
    // 7.8.1 is the latest on npm, but its linux platform packages were never published; 7.7.7 has them.
    testedVersion: '7.7.7',
    verifiedLive: true,
  },
  ...openCodeStyleCli(kiloFlavor, ['KILO_API_KEY']),
  detectAuth: detectKiloAuth,
});
