import type {
  CliAdapterDefinition,
  CliAdapterOptions,
  CliProcessLaunchDefinition,
} from '../../shared/define-cli-adapter.ts';
import { openCodeDataDir, openCodeProviderKeyEnv } from './opencode-auth.ts';
import { type OpenCodeFlavor, openCodePlan } from './opencode-plan.ts';
import { openCodeStyleSessionFiles } from './opencode-session-files.ts';
import { openCodeTranslator } from './opencode-translator.ts';

/** The part of a CLI adapter's definition that OpenCode and its forks (Kilo) share. */
export type OpenCodeStyleCli = Pick<
  CliAdapterDefinition,
  'capabilities' | 'secretEnv' | 'sessionDir' | 'sessionFiles' | 'readsFromRepository' | 'keyInputs'
> &
  Pick<CliProcessLaunchDefinition<CliAdapterOptions>, 'plan' | 'translator'>;

/**
 * What an OpenCode-style `run --format json` CLI is, given its flavor (executable, config variable,
 * temp prefix, default agent) and its own key variables: OpenCode's capabilities (Kilo behaves
 * alike: `kilo run` auto-rejects `ask` too; `--auto` would approve them all), those keys and every
 * provider's as secrets, its data dir as the session dir (a session carried by the CLI's export and import), OpenCode's plan with the flavor's names, and OpenCode's translator.
 */
export function openCodeStyleCli(flavor: OpenCodeFlavor, ownKeyEnv: readonly string[]): OpenCodeStyleCli {
  return {
    // True to `opencode run` 1.18.33 as run here against a local Chat Completions server (src/adapters/agents/opencode/README.md).
    capabilities: {
      // `--session <id>` continues a session; `--fork` with it forks first.
      resume: true,
      fork: true,
      // `--variant` is per model; `reasoning` parts are printed with `--thinking`.
      thinking: 'model-dependent',
      // `mcp.<name>` remote servers (streamable HTTP) with headers, through the inline config.
      mcp: true,
      // `opencode run` auto-rejects every `ask` (no hook to relay it): the policy becomes `permission` config.
      approvals: 'none',
      sessionPersistence: 'sqlite',
      // Whole parts as they end: a text part, a reasoning part, a finished tool call; no token deltas.
      streaming: 'full',
    },
    secretEnv: [...ownKeyEnv, ...openCodeProviderKeyEnv],
    // OpenCode and Kilo read nothing from the repository beyond the common set (checked against the CLIs).
    readsFromRepository: [],
    keyInputs: { 'openrouter-api-key': 'OPENROUTER_API_KEY' },
    sessionDir: (env) => openCodeDataDir(flavor.command, env),
    sessionFiles: openCodeStyleSessionFiles(flavor),
    plan: (ctx, { command }) => openCodePlan(ctx, { ...flavor, command }),
    translator: openCodeTranslator,
  };
}
