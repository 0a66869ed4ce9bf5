import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlanTempDir } from '../../../src/adapters/shared/plan-temp-dir.ts';

describe('PlanTempDir', () => {
  it('makes no folder and no cleanup until a file is written', () => {
    const temp = new PlanTempDir('agent-mux-test-');
    expect(temp.cleanup()).toBeUndefined();
  });

  it('writes private files in one folder under the temp dir, which cleanup removes', () => {
    const temp = new PlanTempDir('agent-mux-test-');
    const text = temp.write('a.md', 'hello');
    const json = temp.writeJson('b.json', { x: 1 });
    expect(dirname(text)).toBe(dirname(json));
    expect(dirname(dirname(text))).toBe(tmpdir());
    expect(basename(dirname(text))).toMatch(/^agent-mux-test-/);
    expect(readFileSync(text, 'utf8')).toBe('hello');
    expect(readFileSync(json, 'utf8')).toBe('{\n  "x": 1\n}\n');
    if (process.platform !== 'win32') expect(statSync(text).mode & 0o777).toBe(0o600);

    const cleanup = temp.cleanup();
    expect(cleanup).toBeTypeOf('function');
    cleanup?.();
    expect(existsSync(dirname(text))).toBe(false);
  });
});
