import { randomUUID } from 'node:crypto';
import type { Adapter } from '../adapter/index.ts';
import { offlineLaunchContext } from '../adapter/offline-launch-context.ts';
import { CostTracker } from '../cost/cost-tracker.ts';
import { AgentMuxError } from '../errors/index.ts';
import type { AgentEvent, RunEndReason } from '../events/index.ts';
import { Redactor } from '../redact/redactor.ts';
import { RecordPipeline } from './record-pipeline.ts';
import { RunEmitter } from './run-emitter.ts';

export interface ReplayOptions {
  runId?: string;
  debug?: boolean;
  /** Secret values to redact, as in a live run. */
  secrets?: readonly string[];
  costModel?: string;
  /** Protocol override; default: the adapter's plan for an empty request. */
  protocol?: 'json-lines' | 'text';
  /** Exit status the recorded program had; default 0. */
  exitCode?: number;
  /** The request the recorded run had (a resumed session, a model), as its translator saw it. */
  request?: Partial<import('../adapter/index.ts').RunRequest>;
}

/**
 * Feeds a recorded native stream (the program's stdout) through an adapter's translator,
 * exactly as a live run decodes it, and delivers the normalized events ending in `run_end`.
 */
export async function replayStream(
  adapter: Adapter,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onEvent: (event: AgentEvent) => void,
  options: ReplayOptions = {},
): Promise<void> {
  const launch = adapter.launch;
  if (launch.kind !== 'process') {
    throw new AgentMuxError('replay_unsupported', `${adapter.id} is not a process adapter; it has no native stream`);
  }
  const runId = options.runId ?? `replay_${randomUUID()}`;
  const debug = options.debug ?? false;
  const emitter = new RunEmitter({
    runId,
    agent: adapter.id,
    debug,
    redactor: new Redactor(options.secrets ?? []),
    costs: new CostTracker({ costModel: options.costModel ?? adapter.costModel }),
    onEvent,
  });
  const request = { prompt: '', cwd: process.cwd(), ...options.request };
  const processLaunch = launch;
  const planProtocol = async (): Promise<'json-lines' | 'text'> => {
    const plan = await processLaunch.plan(offlineLaunchContext(request, runId, debug));
    // The plan was made only to learn its protocol: undo whatever it prepared (temp files).
    await plan.cleanup?.();
    return plan.protocol;
  };
  const protocol = options.protocol ?? (await planProtocol());
  const pipeline = new RecordPipeline({
    translator: launch.translator,
    protocol,
    debug,
    request,
    emit: (draft, raw) => emitter.emit(draft, raw),
  });
  const started = Date.now();
  for await (const chunk of input) pipeline.pushStdout(chunk);
  pipeline.end();
  const exitCode = options.exitCode ?? 0;
  pipeline.finish({ exitCode, signal: null });
  const outcome = pipeline.state.outcome;
  const reason: RunEndReason = outcome?.status === 'failed' ? 'failed' : exitCode !== 0 ? 'crashed' : 'completed';
  emitter.end({
    type: 'run_end',
    reason,
    message: outcome?.message,
    exitCode,
    signal: null,
    durationMs: Date.now() - started,
    sessionId: pipeline.state.sessionId,
    output: outcome?.output,
    attempts: 1,
  });
}
