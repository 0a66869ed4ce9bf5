import { describe, expect, it } from 'vitest';
import { unknownAgentMessage } from '../../src/action/unknown-agent-message.ts';
import { closestName } from '../../src/core/errors/did-you-mean.ts';

describe('unknownAgentMessage', () => {
  it('suggests the nearest known agent', () => {
    expect(unknownAgentMessage('claud', ['codex', 'claude', 'gemini'])).toBe(
      'unknown agent "claud" (did you mean "claude"?)',
    );
    expect(closestName('Open_Code', ['opencode', 'codex'])).toBe('opencode');
    expect(closestName('gemnii', ['gemini', 'pi'])).toBe('gemini');
  });

  it('lists the known agents when none is near', () => {
    expect(unknownAgentMessage('wizard', ['codex', 'claude'])).toBe(
      'unknown agent "wizard"; known agents: claude, codex',
    );
    expect(unknownAgentMessage('wizard', [])).toBe('unknown agent "wizard"');
  });
});
