import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A worker wrote with a lease epoch that is no longer the run's: another worker took the run over. */
export class StaleLeaseError extends AgentMuxError {
  readonly runId: string;
  readonly leaseEpoch: number;

  constructor(runId: string, leaseEpoch: number) {
    super('stale_lease', `run ${runId}: fencing token ${leaseEpoch} is stale (the run was taken over)`);
    this.name = 'StaleLeaseError';
    this.runId = runId;
    this.leaseEpoch = leaseEpoch;
  }

  static override isInstance(error: unknown): error is StaleLeaseError {
    return AgentMuxError.isInstance(error) && error.code === 'stale_lease';
  }
}
