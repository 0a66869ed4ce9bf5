import { describe, expect, it } from 'vitest';
import { parseRepoConfig } from '../../../src/github/config/parse-repo-config.ts';
import { planTurn } from '../../../src/github/conversation/plan-turn.ts';
import { type TurnRecord, turnRecordLine } from '../../../src/github/conversation/turn-record.ts';
import type { CommentInfo, GitHubApi } from '../../../src/github/github-api.ts';

const repo = { owner: 'octo', repo: 'demo' };
const SELF = 'agent-mux[bot]';
const parsed = parseRepoConfig('', '.github/agent-mux.yml');
if (!parsed.ok) throw new Error('the empty config must parse');
const config = parsed.config;

function api(records: TurnRecord[]): Pick<GitHubApi, 'listComments'> {
  const data: CommentInfo[] = records.map((record, i) => ({
    id: i + 1,
    body: `<!-- agent-mux:run:run_${i} -->\n${turnRecordLine(record)}\n**agent-mux** …`,
    htmlUrl: `https://github.com/octo/demo/issues/7#issuecomment-${i + 1}`,
    user: { login: SELF, type: 'Bot' },
    createdAt: record.at,
    updatedAt: record.at,
  }));
  return { listComments: async () => ({ notModified: false, etag: undefined, data }) };
}

const turn = (n: number, job: string): TurnRecord => ({
  conversation: 7,
  turn: n,
  job,
  agent: 'claude',
  at: new Date(Date.UTC(2026, 10, 24, 10, n)).toISOString(),
  instruction: `turn ${n}`,
});

const plan = (records: TurnRecord[], jobId: string) =>
  planTurn({
    api: api(records),
    repo,
    number: 7,
    config,
    selfLogins: [SELF],
    agentName: 'claude',
    agentNamed: false,
    fresh: false,
    jobId,
    allowedAgents: ['claude'],
    now: new Date(Date.UTC(2026, 10, 24, 12)),
  });

describe('planTurn', () => {
  it('a new mention is the next turn, continuing every earlier one', async () => {
    const p = await plan([turn(1, 'm1'), turn(2, 'm2')], 'm3');
    expect(p.turn).toBe(3);
    expect(p.earlier.map((t) => t.record.turn)).toEqual([1, 2]);
  });

  it('a retried run of the same mention (app recovery, a re-run workflow) is that turn again', async () => {
    const p = await plan([turn(1, 'm1'), turn(2, 'm2')], 'm2');
    expect(p.turn).toBe(2);
    expect(p.earlier.map((t) => t.record.turn)).toEqual([1]);
  });

  it('a retried first turn stays turn 1 with nothing earlier', async () => {
    const p = await plan([turn(1, 'm1')], 'm1');
    expect(p.turn).toBe(1);
    expect(p.earlier).toEqual([]);
  });
});
