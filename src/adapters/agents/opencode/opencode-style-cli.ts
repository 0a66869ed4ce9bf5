import type {
  CliAdapterDefinition,
  CliAdapterOptions,
  CliProcessLaunchDefinition,
} from '../../shared/define-cli-adapter.ts';
import { openCodeDataDir, openCodeProviderKeyEnv } from './opencode-auth.ts';
import { type OpenCodeFlavor, openCodePlan } from './opencode-plan.ts';
import { openCodeTranslator } from './opencode-translator.ts';

/** The part of a CLI adapter's definition that OpenCode and its forks (Kilo) share. */
export type OpenCodeStyleCli = Pick<CliAdapterDefinition, 'secretEnv' | 'sessionDir'> &
  Pick<CliProcessLaunchDefinition<CliAdapterOptions>, 'plan' | 'translator'>;

/**
 * What an OpenCode-style `run --format json` CLI is, given its flavor (executable, config variable,
 * temp prefix, default agent) and its own key variables: those keys and every provider's as secrets,
 * its data dir as the session dir, OpenCode's plan with the flavor's names, and OpenCode's translator.
 */
export function openCodeStyleCli(flavor: OpenCodeFlavor, ownKeyEnv: readonly string[]): OpenCodeStyleCli {
  return {
    secretEnv: [...ownKeyEnv, ...openCodeProviderKeyEnv],
    sessionDir: (env) => openCodeDataDir(flavor.command, env),
    plan: (ctx, { command }) => openCodePlan(ctx, { ...flavor, command }),
    translator: openCodeTranslator,
  };
}
