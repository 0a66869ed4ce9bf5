import { describe, expect, it } from 'vitest';
import { findingsFromMessage } from '../../../src/github/review/findings-from-message.ts';

describe('findingsFromMessage', () => {
  it('reads the last JSON block of the answer, keeps the valid findings and names the others', () => {
    const message = [
      'I reviewed the change. An example of the format:',
      '```json',
      '{"findings": [{"path": "x.ts", "line": 1, "severity": "nit", "title": "example"}]}',
      '```',
      'The findings:',
      '```json',
      JSON.stringify({
        findings: [
          { path: 'src/a.ts', line: 4, severity: 'blocker', title: 'Null dereference', suggestion: 'if (x) x.y();' },
          { path: '../etc/passwd', line: 1, severity: 'major', title: 'escape' },
          { path: 'src/b.ts', line: 0, severity: 'urgent', title: 'bad' },
        ],
      }),
      '```',
    ].join('\n');
    const { findings, problems } = findingsFromMessage(message);
    expect(findings).toEqual([
      {
        path: 'src/a.ts',
        line: 4,
        severity: 'blocker',
        title: 'Null dereference',
        body: '',
        suggestion: 'if (x) x.y();',
      },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^finding 2: .*path/);
    expect(problems[1]).toMatch(/^finding 3: /);
  });

  it('finds nothing in an answer without a findings block', () => {
    expect(findingsFromMessage('Looks good to me.\n```ts\nconst x = 1;\n```')).toEqual({ findings: [], problems: [] });
  });
});
