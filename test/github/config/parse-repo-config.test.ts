import { describe, expect, it } from 'vitest';
import { lineOfConfigPath } from '../../../src/core/config/source-locator.ts';
import { ConfigError } from '../../../src/core/errors/config-error.ts';
import { parseRepoConfig } from '../../../src/github/config/index.ts';

const FILE = '.github/agent-mux.yml';

describe('parseRepoConfig', () => {
  it('returns the config with its source and path', () => {
    const result = parseRepoConfig('git:\n  draft: true\n', FILE);
    expect(result).toMatchObject({ ok: true, source: 'file', path: FILE, config: { git: { draft: true } } });
  });

  it.each([
    { name: 'an unclosed flow sequence', yaml: 'trigger:\n  allowedBots: [a, b\ngit: {}\n', line: 3 },
    { name: 'a tab indentation', yaml: 'trigger:\n\tphrase: x\n', line: 2 },
    { name: 'a duplicate key', yaml: 'git:\n  draft: true\n  draft: false\n', line: 3 },
    { name: 'two documents', yaml: 'git: {}\n---\ntrigger: {}\n', line: 2 },
    { name: 'an unclosed quote', yaml: 'trigger:\n  phrase: "@agent\n', line: 2 },
  ])('a YAML syntax error ($name) is a ConfigError naming the line', ({ yaml, line }) => {
    const result = parseRepoConfig(yaml, FILE);
    if (result.ok) throw new Error('expected an error');
    expect(ConfigError.isInstance(result.error)).toBe(true);
    expect(result.path).toBe(FILE);
    expect(result.error.file).toBe(FILE);
    expect(result.error.issues[0]).toMatchObject({ path: '', line });
    expect(result.error.message).toMatch(new RegExp(`^\\(root\\): invalid YAML: .* \\(${FILE}:${line}\\)`));
  });

  it('refuses a billion-laughs alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
      );
    const result = parseRepoConfig(bomb.join('\n'), FILE);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('invalid YAML');
  });

  it('ignores a byte order mark and keeps line numbers', () => {
    const result = parseRepoConfig('\uFEFFgit:\n  draft: maybe\n', FILE);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(`git.draft: expected true or false, got "maybe" (${FILE}:2)`);
  });

  it('keeps the zod error as the cause', () => {
    const result = parseRepoConfig('concurrency: { perIssue: x }', FILE);
    if (result.ok) throw new Error('expected an error');
    expect(result.error.cause).toBeDefined();
    expect(result.error.issues).toEqual([
      { path: 'concurrency.perIssue', message: 'expected one of "queue", "cancel", got "x"', line: 1 },
    ]);
  });

  it('lets later checks name the line of a field (lineOfConfigPath)', () => {
    const result = parseRepoConfig('# agents\nagents:\n  gpu:\n    model: m\n    adapter: not-installed\n', FILE);
    if (!result.ok) throw new Error(result.error.message);
    expect(lineOfConfigPath(result.config, ['agents', 'gpu', 'adapter'])).toBe(5);
    expect(lineOfConfigPath(result.config, ['agents', 'gpu'], 'key')).toBe(3);
  });

  it('names the file it was given', () => {
    const result = parseRepoConfig('trigger: { permission: x }', '.github/agent-mux.yaml');
    expect(result.ok ? '' : result.error.message).toMatch(/\(\.github\/agent-mux\.yaml:1\)$/);
  });
});
