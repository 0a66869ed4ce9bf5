import { describe, expect, it } from 'vitest';
import { approvalMarker } from '../../src/github/approvals/render-approval-comment.ts';
import { parseTurnRecord, turnRecordLine } from '../../src/github/conversation/turn-record.ts';
import {
  CONFIG_CHECK_RUN_NAME,
  checkRunName,
  forkPullRequestTitle,
  MARKER_PREFIX,
  markers,
  runTitle,
} from '../../src/github/github-names.ts';
import { renderThreadReply } from '../../src/github/report/render-thread-reply.ts';
import { parseRunMarker, runMarker } from '../../src/github/report/render-tracking-comment.ts';

describe('github-names (every name agent-mux writes on GitHub and reads back)', () => {
  it('every comment marker begins with the prefix that keeps agent-mux’s own comments from triggering', () => {
    const written = [
      markers.run('run_1'),
      markers.turn('eyJ0dXJuIjoxfQ'),
      markers.approval('appr_1'),
      markers.approvalReply,
      markers.threadReply('run_1'),
      markers.configError,
      markers.refusal,
      markers.unfenced('run_1'),
    ];
    for (const marker of written) {
      expect(marker.startsWith(MARKER_PREFIX), marker).toBe(true);
      expect(marker.endsWith(' -->'), marker).toBe(true);
    }
    expect(new Set(written).size).toBe(written.length);
  });

  it('what the renderers write is what the parsers read', () => {
    expect(parseRunMarker(`${runMarker('run_abc-1')}\nbody`)).toBe('run_abc-1');
    expect(approvalMarker('appr_9')).toBe(markers.approval('appr_9'));
    const record = {
      conversation: 12,
      turn: 2,
      job: 'j',
      agent: 'demo',
      at: '2026-12-03T00:00:00Z',
      instruction: 'fix it',
    };
    expect(parseTurnRecord(`text\n${turnRecordLine(record)}\nmore`)).toMatchObject(record);
    expect(renderThreadReply({ runId: 'run:1', agent: 'demo', conclusion: 'success', changedFiles: 0 })).toMatch(
      new RegExp(`^${markers.threadReply('run:1')}`),
    );
  });

  it('check runs and titles', () => {
    expect(checkRunName('claude')).toBe('agent-mux / claude');
    expect(checkRunName('claude', 3)).toBe('agent-mux / claude (turn 3)');
    expect(CONFIG_CHECK_RUN_NAME).toBe('agent-mux / config');
    expect(runTitle('Fix the README typo\nand more')).toBe('agent-mux: Fix the README typo');
    expect(runTitle('x'.repeat(80))).toBe(`agent-mux: ${'x'.repeat(57)}…`);
    expect(runTitle('  ')).toBe('agent-mux: changes');
    expect(forkPullRequestTitle(7)).toBe('Fix for #7 (from agent-mux)');
  });
});
