import type { ErrorCode } from '../../events/index.ts';
import type { StopRequest } from '../attempt-result.ts';

/**
 * Why the core stops a run (a timeout, inactivity, an abort, an expired lease, a spent budget): the
 * stop it asks of the attempt, and the one error the run reports for it (an abort reports none).
 */
export interface StopCause extends StopRequest {
  error?: { code: ErrorCode; message: string };
}

/** Emits a cause's error and stops the attempt: the one way every stop cause ends the run. */
export type RequestStop = (cause: StopCause) => void;
