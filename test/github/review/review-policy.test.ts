import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/core/tools/permission-policy.ts';
import { reviewPolicy } from '../../../src/github/review/review-policy.ts';

describe('reviewPolicy', () => {
  const configured = { default: 'ask' as const, rules: [{ tool: 'shell', decision: 'allow' as const }] };

  it('allows report_finding, refuses writes, and keeps the run’s own rules for the rest', () => {
    const policy = reviewPolicy(configured);
    expect(decide(policy, 'report_finding', {}).decision).toBe('allow');
    expect(decide(policy, 'write_file', { path: 'a.ts' })).toMatchObject({
      decision: 'deny',
      rule: { reason: expect.stringContaining('a review changes no file') },
    });
    expect(decide(policy, 'shell', { command: 'npm test' }).decision).toBe('allow');
    expect(decide(policy, 'read_file', {}).decision).toBe('ask');
  });
});
