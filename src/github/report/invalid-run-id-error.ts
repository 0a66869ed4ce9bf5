import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A run id that cannot go into the tracking comment's hidden marker. */
export class InvalidRunIdError extends AgentMuxError {
  readonly runId: string;

  constructor(runId: string) {
    super('report_run_id_invalid', `run id ${JSON.stringify(runId)} must match [A-Za-z0-9._:-]{1,128}`);
    this.name = 'InvalidRunIdError';
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is InvalidRunIdError {
    return AgentMuxError.isInstance(error) && error.code === 'report_run_id_invalid';
  }
}
