import { describe, expect, it } from 'vitest';
import { SessionStop } from '../../../src/adapters/shared/session-stop.ts';

describe('SessionStop', () => {
  it("stops on the run's abort, keeps the first reason, and its session's stop waits for the run", async () => {
    const run = new AbortController();
    const stop = new SessionStop(run.signal);
    let settle: (() => void) | undefined;
    const session = stop.session(
      new Promise((resolve) => {
        settle = () => resolve(stop.outcome({ sessionId: 's1' }));
      }),
    );
    expect(stop.stopped).toBe(false);
    run.abort();
    expect(stop.stopped).toBe(true);
    const stopping = session.stop('timeout');
    settle?.();
    await stopping;
    expect(await session.done).toEqual({ status: 'failed', message: 'stopped: aborted', sessionId: 's1' });
  });

  it('names the reason the core stopped it with', async () => {
    const stop = new SessionStop(new AbortController().signal);
    const session = stop.session(
      new Promise((resolve) => stop.signal.addEventListener('abort', () => resolve(stop.outcome()))),
    );
    await session.stop('inactivity');
    expect(await session.done).toEqual({ status: 'failed', message: 'stopped: inactivity' });
  });
});
