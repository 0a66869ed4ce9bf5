import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECK_RUN_TEXT_LIMIT, droppedMarker, RollingLog } from '../../../src/github/report/rolling-log.ts';

describe('RollingLog', () => {
  it('joins lines while they fit', () => {
    const log = new RollingLog(200);
    log.push('one');
    log.push('two');
    expect(log.render()).toBe('one\ntwo');
    expect([log.size, log.dropped, log.last]).toEqual([2, 0, 'two']);
  });

  it('drops the oldest lines and says how many', () => {
    const log = new RollingLog(200);
    for (let i = 0; i < 100; i++) log.push(`line ${String(i).padStart(3, '0')}`);
    const out = log.render();
    expect(out.length).toBeLessThanOrEqual(200);
    const lines = out.split('\n');
    expect(lines[0]).toBe(droppedMarker(log.dropped));
    expect(lines.at(-1)).toBe('line 099');
    expect(log.dropped + log.size).toBe(100);
    expect(lines).toHaveLength(log.size + 1);
  });

  it('cuts a single line longer than the budget but keeps it', () => {
    const log = new RollingLog(200);
    log.push('old');
    log.push('x'.repeat(1000));
    const out = log.render();
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).toMatch(/^… 1 earlier line dropped\nx+…$/);
  });

  it('renders within a smaller limit on demand', () => {
    const log = new RollingLog();
    for (let i = 0; i < 1000; i++) log.push(`entry ${i}`);
    const out = log.render(100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out.endsWith('entry 999')).toBe(true);
    expect(log.render(10)).toBe('');
  });

  it('defaults to the check run text limit', () => {
    const log = new RollingLog();
    for (let i = 0; i < 5000; i++) log.push('y'.repeat(499));
    expect(log.limit).toBe(CHECK_RUN_TEXT_LIMIT);
    expect(log.render().length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT);
    expect(log.render().length).toBeGreaterThan(CHECK_RUN_TEXT_LIMIT - 600);
  });

  it('property: output within the limit, newest line always kept (or its start)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 96, max: 2000 }),
        fc.array(fc.string({ maxLength: 3000 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 0, max: 3000 }),
        (limit, lines, renderLimit) => {
          const log = new RollingLog(limit);
          for (const line of lines) log.push(line);
          const out = log.render();
          expect(out.length).toBeLessThanOrEqual(limit);
          expect(log.render(renderLimit).length).toBeLessThanOrEqual(renderLimit);
          const newest = lines.at(-1)!;
          const budget = limit - 48; // the room kept for the marker line
          if (newest.length <= budget) expect(out.endsWith(newest)).toBe(true);
          else expect(out.endsWith(`${newest.slice(0, budget - 1)}…`)).toBe(true);
        },
      ),
    );
  });

  it('is linear: 200,000 lines stay fast in total (no re-join per line)', () => {
    const log = new RollingLog();
    for (let i = 0; i < 200_000; i++) log.push(`[00:00] tool read_file src/file-${i}.ts done`);
    expect(log.size + log.dropped).toBe(200_000);
    expect(log.render().length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT);
  });
});
