import type { AgentEvent } from '../../../core/events/index.ts';
import { createBufferedReporter } from '../buffered-reporter.ts';
import { type Reporting, startReporting } from '../start-reporting.ts';
import type { RunContext } from './plan-run.ts';
import type { RunTarget } from './run-target.ts';

/** A run's check run and tracking comment, being made while the agent gets ready. */
export interface RunReports {
  /** The reporter, once the check run (and comment) exist; rejects when they cannot be made. */
  reporting: Promise<Reporting>;
  /** The front end's signal, also aborted when the reports cannot be made: nothing runs unreported. */
  signal: AbortSignal;
  /** A line for the check run (buffered until it exists) and the front end. */
  note(line: string): void;
  /** An agent event for the check run and the comment (buffered until they exist). */
  onEvent(event: AgentEvent): void;
  /** Throws why the check run could not be made, when it could not; else returns at once. */
  settled(): Promise<void>;
}

/**
 * Starts writing the check run and the tracking comment while the agent's program and the
 * workspace get ready (the agent never waits for GitHub's write throttle); what the run says
 * before they exist is buffered and replayed into them.
 */
export function beginReports(ctx: RunContext, target: Promise<RunTarget>): RunReports {
  const { options, job, secrets } = ctx;
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const buffer = createBufferedReporter();
  const reporting = (async () => {
    const started = await startReporting({
      api: ctx.api,
      job,
      runId: ctx.runId,
      headSha: (await target).headSha,
      turn: ctx.plan.turn,
      model: options.model ?? job.config.agents[job.agentName]?.model,
      tracking: ctx.tracking,
      baseRecord: ctx.baseRecord,
      detailsUrl: options.detailsUrl,
      clock: options.clock,
      ...(options.liveWrites ? { liveWrites: options.liveWrites } : {}),
      onStarted: options.onStarted,
      log: ctx.log,
    });
    buffer.attach(started.reporter);
    return started;
  })();
  let failed = false;
  reporting.catch(() => {
    failed = true;
    stop.abort('the check run could not be created');
  });
  return {
    reporting,
    signal,
    note(line) {
      buffer.note(line);
      options.onNote?.(secrets.redactor.redactString(line));
    },
    onEvent: (event) => buffer.onEvent(event),
    async settled() {
      if (failed) await reporting;
    },
  };
}
