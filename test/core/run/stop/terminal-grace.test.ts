import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalGrace } from '../../../../src/core/run/stop/terminal-grace.ts';

describe('TerminalGrace', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the agent terminalGraceMs after it said it is done, once, then stops what is left', () => {
    let over = 0;
    const grace = new TerminalGrace({ terminalGraceMs: 2000, graceMs: 500, onGraceOver: () => over++ });
    expect(grace.settleMs).toBe(500);
    expect(grace.reach()).toBe(true);
    expect(grace.reach()).toBe(false);
    vi.advanceTimersByTime(1999);
    expect(over).toBe(0);
    vi.advanceTimersByTime(1);
    expect(over).toBe(1);
    expect(grace.reached).toBe(true);
  });

  it('starts no grace after a stop of the core, and a stop ends a running grace', () => {
    let over = 0;
    const first = new TerminalGrace({ terminalGraceMs: 100, graceMs: 5000, onGraceOver: () => over++ });
    first.stop();
    expect(first.reach()).toBe(false);
    expect(first.reached).toBe(false);
    const second = new TerminalGrace({ terminalGraceMs: 100, graceMs: 5000, onGraceOver: () => over++ });
    second.reach();
    second.stop();
    vi.advanceTimersByTime(1000);
    expect(over).toBe(0);
    expect(second.reached).toBe(true);
  });
});
