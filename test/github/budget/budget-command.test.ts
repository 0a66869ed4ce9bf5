import { describe, expect, it } from 'vitest';
import { answerFromCommand, isDecisionCommand } from '../../../src/github/approvals/answer-from.ts';
import { parseCommand } from '../../../src/github/trigger/parse-command.ts';

const parse = (text: string) => parseCommand(text, { agents: ['codex'] });

describe('/budget <amount> (issue 37.2)', () => {
  it.each([
    ['/budget 5', { amount: 5, unit: 'usd' }],
    ['/budget $5.50', { amount: 5.5, unit: 'usd' }],
    ['/budget $ 12', { amount: 12, unit: 'usd' }],
    ['/budget 5 usd', { amount: 5, unit: 'usd' }],
    ['  /budget 7.25. Thanks!', { amount: 7.25, unit: 'usd' }],
    ['/budget 400000 tokens', { amount: 400000, unit: 'tokens' }],
    ['/BUDGET 3 Tokens', { amount: 3, unit: 'tokens' }],
    ['Looks fine.\n/budget 3', { amount: 3, unit: 'usd' }],
  ])('reads %j', (text, expected) => {
    expect(parse(text)).toEqual({ kind: 'budget', ...expected });
  });

  it.each([
    '/budget 0',
    '/budget',
    '/budget abc',
    '/budget 5x',
    '/budget 1.234',
    '/budget -5',
    'please /budget 5',
    '> /budget 9',
    '`/budget 9`',
    '```\n/budget 9\n```',
    '<!-- /budget 9 -->',
  ])('reads nothing in %j', (text) => {
    expect(parse(text)).toBeUndefined();
  });

  it('wins over a mention in the same comment, like /approve', () => {
    expect(parse('/budget 5\n@agent codex: go on')).toEqual({ kind: 'budget', amount: 5, unit: 'usd' });
  });

  it('is an answer (a raise) and not a run', () => {
    const command = parse('/budget 5');
    expect(isDecisionCommand(command)).toBe(true);
    if (!isDecisionCommand(command)) return;
    const answer = answerFromCommand(command, {
      actor: { login: 'alice', type: 'User' },
      source: { kind: 'issue_comment', commentId: 9 },
      givenAt: '2026-12-07T08:00:00Z',
    });
    expect(answer).toEqual({
      decision: 'raise',
      raise: { amount: 5, unit: 'usd' },
      actor: { login: 'alice', type: 'User' },
      via: 'comment',
      source: { kind: 'issue_comment', commentId: 9 },
      givenAt: '2026-12-07T08:00:00Z',
    });
    expect(answer.approvalId).toBeUndefined();
  });
});
