import { describe, expect, it } from 'vitest';
import { BUDGET_SPENT_MESSAGE } from '../../../src/core/run/stop/budget.ts';
import { endReasonPhrase, endReasonText } from '../../../src/github/report/run-lifecycle.ts';

describe('endReasonText: why a run ended, said once', () => {
  it('does not repeat a reason its message already says (the core’s own messages)', () => {
    expect(endReasonText({ reason: 'budget_exceeded', message: BUDGET_SPENT_MESSAGE })).toBe('budget exceeded');
    expect(endReasonText({ reason: 'timeout', message: 'timed out after 600000 ms' })).toBe(
      'timed out after 600000 ms',
    );
  });

  it('puts the reason in words before a message that does not say it', () => {
    expect(
      endReasonText({
        reason: 'budget_exceeded',
        message: "the run's files took 600 MiB of disk, more than its 512 MiB (AGENT_MUX_MAX_RUN_MB)",
      }),
    ).toBe("budget exceeded: the run's files took 600 MiB of disk, more than its 512 MiB (AGENT_MUX_MAX_RUN_MB)");
    expect(endReasonText({ reason: 'timeout', message: 'claude ran longer than its 1000 ms limit' })).toBe(
      'timed out: claude ran longer than its 1000 ms limit',
    );
    expect(endReasonText({ reason: 'crashed', message: 'claude exited with code 1' })).toBe(
      'crashed: claude exited with code 1',
    );
    expect(endReasonText({ reason: 'inactivity', message: 'no output for 300000 ms' })).toBe(
      'inactivity: no output for 300000 ms',
    );
  });

  it('without a message, says that the run ended and why', () => {
    expect(endReasonText({ reason: 'budget_exceeded' })).toBe('the run ended: budget exceeded');
    expect(endReasonText({ reason: 'aborted', message: ' ' })).toBe('the run ended: aborted');
  });

  it('endReasonPhrase: the same for a log line, with its own separator and no preamble', () => {
    expect(endReasonPhrase({ reason: 'crashed', message: 'exit code 1' }, ' — ')).toBe('crashed — exit code 1');
    expect(endReasonPhrase({ reason: 'budget_exceeded', message: BUDGET_SPENT_MESSAGE }, ' — ')).toBe(
      'budget exceeded',
    );
    expect(endReasonPhrase({ reason: 'completed' })).toBe('completed');
  });
});
