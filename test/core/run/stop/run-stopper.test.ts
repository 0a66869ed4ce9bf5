import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import type { StopRequest } from '../../../../src/core/run/attempt-result.ts';
import { RunStopper } from '../../../../src/core/run/stop/run-stopper.ts';

describe('RunStopper', () => {
  it('emits each cause its error, keeps the first as pending and hands it to an attempt that registers later', () => {
    const drafts: EventDraft[] = [];
    const stopper = new RunStopper((draft) => drafts.push(draft));
    stopper.requestStop({
      reason: 'timeout',
      shutdown: 'timeout',
      message: 'timed out',
      error: { code: 'timeout', message: 'too long' },
    });
    stopper.requestStop({ reason: 'aborted', shutdown: 'cancelled', message: 'aborted' });
    expect(drafts).toEqual([{ type: 'error', code: 'timeout', message: 'too long', recoverable: false }]);
    const seen: StopRequest[] = [];
    stopper.attach((request) => seen.push(request));
    expect(seen).toEqual([{ reason: 'timeout', shutdown: 'timeout', message: 'timed out' }]);
    expect(stopper.pending).toEqual(seen[0]);
  });

  it('passes a stop to the attempt that runs, and none after it is detached', () => {
    const stopper = new RunStopper(() => undefined);
    const seen: string[] = [];
    stopper.attach((request) => seen.push(request.shutdown));
    stopper.attach(undefined);
    stopper.requestStop({ reason: 'failed', shutdown: 'lease_expired', message: 'lease expired' });
    expect(seen).toEqual([]);
    stopper.attach((request) => seen.push(request.shutdown));
    expect(seen).toEqual(['lease_expired']);
  });
});
