import type { Adapter, Capabilities } from '../../../core/adapter/index.ts';
import type { GenericCliAdapterConfig } from '../../../core/config/index.ts';
import { configuredAdapterBase } from '../../shared/configured-adapter-base.ts';
import { configuredCapabilities } from '../../shared/configured-capabilities.ts';
import { PersistentCli } from './persistent-cli.ts';
import { textOutputTranslator } from './text-output-translator.ts';
import { textProgramPlan } from './text-program-plan.ts';

export interface GenericCliOptions {
  /**
   * `persistent` only: a run's turn ends when the program has printed nothing for this long, counted from
   * the prompt's write and from each line after it (the generic-cli profile has no turn completion).
   * Default 1500 ms.
   */
  quietMs?: number;
  /**
   * `persistent` only: a program started for a run has this long to print its first line before `quietMs`
   * applies (its start-up is not an answer's silence). Default 10 s.
   */
  startupMs?: number;
  /** `persistent` only: SIGTERM → SIGKILL window when the program is killed (stop, dispose). Default 2000 ms. */
  graceMs?: number;
}

/** A generic-cli adapter; `dispose()` kills a persistent program (a no-op for `per-session`). */
export type GenericCliAdapter = Adapter & {
  dispose(): Promise<void>;
  /** The persistent program's pid while it runs (always undefined for `per-session`). */
  readonly pid: number | undefined;
};

export const DEFAULT_QUIET_MS = 1500;
const DEFAULT_STARTUP_MS = 10_000;
const DEFAULT_GRACE_MS = 2000;

/** Its capabilities: no native session ids, no turn completion, no resume; interactive. */
export function genericCliCapabilities(spawnPolicy: GenericCliAdapterConfig['spawn_policy']): Capabilities {
  return configuredCapabilities({
    // A persistent program remembers earlier runs' input for as long as it lives.
    sessionPersistence: spawnPolicy === 'persistent' ? 'memory' : 'none',
    execModel: 'interactive',
    turnCompletion: false,
  });
}

/**
 * The `generic-cli` profile: an interactive program. The run's prompt is written to its stdin as one
 * line; each stdout line becomes a `text_delta` (newline kept) of one message, each stderr line a `log`.
 *
 * - `per-session`: a new program per run. Stdin stays open after the prompt (an interactive program waits
 *   for more input, and closing it would make many quit before answering); the run ends when the program
 *   exits, or by the run's timeouts or abort.
 * - `persistent`: one program for every run of this adapter, in its own process group that dies with this
 *   process and on `dispose()`. Runs take turns; a turn ends after `quietMs` without output (a freshly started program has `startupMs` for its first line; output
 *   between turns is dropped). A program that died is started again by the next run; a stopped run kills
 *   it. The program starts in `work_dir` or the first run's `cwd`, with the first run's environment plus
 *   `env`; arguments may use `${NAME}` and `{{workspacePath}}` only, and a run's own `env` does not reach it.
 */
export function genericCliAdapter(
  id: string,
  config: GenericCliAdapterConfig,
  options: GenericCliOptions = {},
): GenericCliAdapter {
  const base = configuredAdapterBase({
    id,
    displayName: `${id} (generic-cli: ${config.command})`,
    capabilities: genericCliCapabilities(config.spawn_policy),
    config,
  });
  if (config.spawn_policy === 'persistent') {
    const cli = new PersistentCli({
      command: config.command,
      args: config.args,
      workDir: config.work_dir,
      env: config.env,
      quietMs: options.quietMs ?? DEFAULT_QUIET_MS,
      startupMs: options.startupMs ?? DEFAULT_STARTUP_MS,
      graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    });
    return {
      ...base,
      launch: { kind: 'session', open: (ctx) => cli.open(ctx) },
      dispose: () => cli.dispose(),
      get pid() {
        return cli.pid;
      },
    };
  }
  return {
    ...base,
    launch: {
      kind: 'process',
      plan: (ctx) => ({ ...textProgramPlan(config, ctx), keepStdinOpen: true }),
      translator: textOutputTranslator,
    },
    dispose: async () => undefined,
    pid: undefined,
  };
}
