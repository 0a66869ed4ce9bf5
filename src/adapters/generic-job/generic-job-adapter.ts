import { randomUUID } from 'node:crypto';
import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../core/adapter/index.ts';
import { type GenericJobAdapterConfig, parseDuration } from '../../core/config/index.ts';
import { deadlineWrapper } from './deadline-wrapper.ts';
import { genericJobTranslator } from './generic-job-translator.ts';

export interface GenericJobOptions {
  /** SIGTERM → SIGKILL window when `max_runtime` is reached. Default 2000 ms. */
  graceMs?: number;
}

/** Seed 004's table: no native session ids, turn completion (the job's exit), no resume; run-to-completion. */
export const genericJobCapabilities: Capabilities = {
  resume: false,
  fork: false,
  thinking: 'no',
  mcp: false,
  approvals: 'none',
  pty: 'never',
  platforms: ['darwin', 'linux'],
  sessionPersistence: 'none',
  execModel: 'run-to-completion',
  nativeSessionIds: false,
  turnCompletion: true,
  streaming: 'text',
};

/**
 * Amurg's `generic-job` profile: one program run to completion per run. The prompt goes to its stdin,
 * which is then closed; each stdout line is streamed as a `text_delta` and the whole text ends the message
 * (`message_stop.text`) when the job exits; stderr lines are `log`s.
 *
 * `max_runtime` (default 5m) is enforced inside the adapter: the job runs under a small Node wrapper that
 * kills its process group at the deadline; the run then ends `failed` with an `error` event of code
 * `timeout` (an adapter cannot end a run with the reason `timeout`: only the core's own timers can).
 */
export function genericJobAdapter(
  id: string,
  config: GenericJobAdapterConfig,
  options: GenericJobOptions = {},
): Adapter {
  const maxRuntimeMs = parseDuration(config.max_runtime);
  const marker = `agent-mux-job-${randomUUID()}`;
  const graceMs = options.graceMs ?? 2000;
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName: `${id} (generic-job: ${config.command})`,
    capabilities: genericJobCapabilities,
    costModel: config.costModel,
    secretEnv: config.secretEnv,
    launch: {
      kind: 'process',
      plan: (ctx) => ({
        ...deadlineWrapper({ command: config.command, args: config.args, maxRuntimeMs, marker, graceMs }),
        env: config.env,
        cwd: config.work_dir || undefined,
        stdin: `${ctx.request.prompt}\n`,
        protocol: 'text',
      }),
      translator: genericJobTranslator({ marker, maxRuntime: config.max_runtime }),
    },
  };
}
