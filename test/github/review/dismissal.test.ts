import { describe, expect, it } from 'vitest';
import { isDismissal } from '../../../src/github/review/dismissal.ts';

describe('isDismissal', () => {
  it.each([
    "won't fix",
    'Won’t fix: the retry is elsewhere',
    'wontfix',
    'Intended.',
    'This is intentional, the cache is warm here',
    'by design',
    'False positive — the input is validated upstream',
    'not a bug',
    'please ignore this',
    '> the busy wait burns a core\n\nworking as intended',
  ])('dismisses %j', (reply) => {
    expect(isDismissal(reply)).toBe(true);
  });

  it.each([
    'Good catch, fixing',
    'Why is this a problem? It is not intended to run in production',
    'I think we should not fix this yet, see #12', // a discussion, not a dismissal: the agent reads it next time
    '',
    '<!-- agent-mux:finding:abc -->',
  ])('does not dismiss %j', (reply) => {
    expect(isDismissal(reply)).toBe(false);
  });
});
