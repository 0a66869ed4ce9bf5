import { describe, expect, it } from 'vitest';
import { markers } from '../../../src/github/github-names.ts';
import { findingSchema } from '../../../src/github/review/finding.ts';
import {
  renderBodyFinding,
  renderFindingComment,
  renderResolvedReply,
} from '../../../src/github/review/render-finding.ts';

const finding = findingSchema.parse({
  path: 'src/a.ts',
  startLine: 4,
  line: 5,
  severity: 'blocker',
  title: 'Null   dereference\nof a.c',
  body: 'a.c is undefined when the cache is cold.',
  suggestion: 'const b = a.c?.d;\nconst s = `${b}`;\n',
});

describe('a finding on GitHub', () => {
  it('is an inline comment with its marker, severity, title, body and a suggestion block', () => {
    expect(renderFindingComment('f00d', finding, 'eyJ')).toBe(
      [
        '<!-- agent-mux:finding:f00d:eyJ -->',
        '',
        '🔴 **Blocker**: Null dereference of a.c',
        '',
        'a.c is undefined when the cache is cold.',
        '',
        '```suggestion',
        'const b = a.c?.d;',
        'const s = `${b}`;',
        '```',
      ].join('\n'),
    );
    expect(markers.findingPattern.exec(renderFindingComment('f00d', finding, 'eyJ'))?.slice(1)).toEqual([
      'f00d',
      'eyJ',
    ]);
  });

  it('uses a longer fence when the suggestion holds one', () => {
    const fenced = findingSchema.parse({ ...finding, suggestion: '```\ncode\n```' });
    expect(renderFindingComment('x', fenced, '')).toContain('````suggestion\n```\ncode\n```\n````');
  });

  it('is one line of the review body when it is not on the diff', () => {
    expect(renderBodyFinding(finding)).toBe(
      '- 🔴 **Blocker** `src/a.ts:4-5`: Null dereference of a.c — a.c is undefined when the cache is cold.',
    );
  });

  it('says why its thread was resolved', () => {
    expect(renderResolvedReply('the code it was about has changed.', 'abcdef1234')).toBe(
      'Resolved by agent-mux on abcdef1: the code it was about has changed.',
    );
  });
});
