import type { Adapter, Capabilities } from '../../../core/adapter/index.ts';
import { type GenericJobAdapterConfig, parseDuration } from '../../../core/config/index.ts';
import { configuredAdapterBase } from '../../shared/configured-adapter-base.ts';
import { configuredCapabilities } from '../../shared/configured-capabilities.ts';
import { textOutputTranslator } from '../generic-cli/text-output-translator.ts';
import { textProgramPlan } from '../generic-cli/text-program-plan.ts';

/** Its capabilities: no native session ids, turn completion (the job's exit), no resume; run-to-completion. */
export const genericJobCapabilities: Capabilities = configuredCapabilities({
  sessionPersistence: 'none',
  execModel: 'run-to-completion',
});

/**
 * The `generic-job` profile: one program run to completion per run. The prompt goes to its stdin,
 * which is then closed; each stdout line is streamed as a `text_delta` and the whole text ends the message
 * (`message_stop.text`) when the job exits; stderr lines are `log`s.
 *
 * `max_runtime` (default 5m) is the plan's `maxRuntimeMs`: when it passes, the core stops the job's whole
 * process group (SIGTERM, the run's grace window, SIGKILL) and the run ends `timeout`, with an `error`
 * event of code `timeout`. Throws `RangeError` for a malformed `max_runtime`.
 */
export function genericJobAdapter(id: string, config: GenericJobAdapterConfig): Adapter {
  const maxRuntimeMs = parseDuration(config.max_runtime);
  return {
    ...configuredAdapterBase({
      id,
      displayName: `${id} (generic-job: ${config.command})`,
      capabilities: genericJobCapabilities,
      config,
    }),
    launch: {
      kind: 'process',
      plan: (ctx) => ({ ...textProgramPlan(config, ctx), maxRuntimeMs }),
      translator: textOutputTranslator,
    },
  };
}
