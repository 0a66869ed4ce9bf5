import { describe, expect, it } from 'vitest';
import { gracefulStop } from '../../../../src/core/run/stop/graceful-stop.ts';

describe('gracefulStop', () => {
  it('does not force an agent that goes by itself within the wait', async () => {
    let forced = false;
    const went = await gracefulStop({
      ask: () => new Promise((resolve) => setTimeout(resolve, 5)),
      waitMs: 1000,
      force: () => {
        forced = true;
      },
    });
    expect([went, forced]).toEqual([true, false]);
  });

  it('forces an agent that stays past the wait, and one that cannot be asked at once', async () => {
    const forced: string[] = [];
    const stays = await gracefulStop({
      ask: () => new Promise(() => undefined),
      waitMs: 20,
      force: async () => {
        forced.push('stays');
      },
    });
    const deaf = await gracefulStop({ ask: () => undefined, waitMs: 60_000, force: () => forced.push('deaf') });
    expect([stays, deaf, forced]).toEqual([false, false, ['stays', 'deaf']]);
  });
});
