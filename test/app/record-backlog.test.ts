import { describe, expect, it } from 'vitest';
import { createRecordBacklog } from '../../src/app/record-backlog.ts';

const dropped = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

/** A database that is away for the first `away` attempts. */
function database(away: number) {
  const recorded: string[] = [];
  let attempts = 0;
  return {
    recorded,
    attempts: () => attempts,
    record: async (id: string) => {
      attempts++;
      if (attempts <= away) throw dropped();
      if (id.startsWith('bad')) throw new Error('invalid input syntax');
      recorded.push(id);
    },
  };
}

describe('createRecordBacklog', () => {
  it('holds deliveries while the database is away and records them in order once it is back', async () => {
    const db = database(4);
    const lines: string[] = [];
    const changes: number[] = [];
    const backlog = createRecordBacklog<string>({
      record: db.record,
      describe: (id) => `delivery ${id}`,
      log: (line) => lines.push(line),
      onChange: (waiting) => changes.push(waiting),
      firstDelayMs: 1,
    });
    // Each is acknowledged (resolves) though nothing could be recorded yet.
    await backlog.record('a');
    await backlog.record('bad-1');
    await backlog.record('b');
    expect(backlog.size()).toBe(3);
    expect(changes).toEqual([1]);
    await backlog.drained();
    expect(db.recorded).toEqual(['a', 'b']);
    expect(backlog.size()).toBe(0);
    expect(changes).toEqual([1, 0]);
    expect(lines).toEqual([
      'database unreachable (Connection terminated unexpectedly): delivery a acknowledged, kept in memory until it can be recorded',
      'delivery bad-1 could not be recorded (invalid input syntax); dropped',
      'database reachable again: 2 held deliveries recorded',
    ]);
    // Back to normal: recorded at once, errors thrown to the caller.
    await backlog.record('c');
    expect(db.recorded).toEqual(['a', 'b', 'c']);
    await expect(backlog.record('bad-2')).rejects.toThrow('invalid input syntax');
  });

  it('refuses a delivery when full, and gives up what waited too long, saying which', async () => {
    const db = database(Number.POSITIVE_INFINITY);
    const lines: string[] = [];
    const backlog = createRecordBacklog<string>({
      record: db.record,
      describe: (id) => `delivery ${id}`,
      log: (line) => lines.push(line),
      maxEntries: 2,
      maxAgeMs: 30,
      firstDelayMs: 5,
    });
    await backlog.record('a');
    await backlog.record('b');
    await expect(backlog.record('c')).rejects.toThrow('2 deliveries wait to be recorded already');
    await backlog.drained();
    expect(lines.at(-1)).toBe(
      'database unreachable for 0 s (Connection terminated unexpectedly): 2 deliveries lost: delivery a, delivery b',
    );
    expect(backlog.size()).toBe(0);
  });
});
