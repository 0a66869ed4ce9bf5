import { describe, expect, it } from 'vitest';
import { StoreConfigError } from '../../../src/app/store/store-config-error.ts';
import { AgentMuxError } from '../../../src/core/errors/agent-mux-error.ts';
import { codedError } from '../../../src/core/errors/coded-error.ts';
import { McpServerError } from '../../../src/core/tools/mcp/mcp-server-error.ts';
import { GitError } from '../../../src/github/git/git-error.ts';

class ToyError extends codedError('ToyError', 'toy_failed') {}

describe('codedError', () => {
  it('gives the class its name and code, keeps the cause, and stays an AgentMuxError', () => {
    const cause = new Error('root');
    const error = new ToyError('it broke', { cause });
    expect(error).toBeInstanceOf(AgentMuxError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ToyError', code: 'toy_failed', message: 'it broke', cause });
    expect(AgentMuxError.isInstance(error)).toBe(true);
  });

  it('narrows by code, also for an error from another copy of the module', () => {
    expect(ToyError.isInstance(new ToyError('x'))).toBe(true);
    expect(ToyError.isInstance(new StoreConfigError('x'))).toBe(false);
    expect(StoreConfigError.isInstance(new McpServerError('x'))).toBe(false);
    expect(ToyError.isInstance(new Error('x'))).toBe(false);
    expect(ToyError.isInstance(undefined)).toBe(false);
    // A structural copy: the marker AgentMuxError sets, and the code.
    const copy: unknown = Object.assign(new Error('x'), { [Symbol.for('agent-mux.error')]: true, code: 'toy_failed' });
    expect(ToyError.isInstance(copy)).toBe(true);
  });

  it('narrows to the class it is called on, fields included', () => {
    const error: unknown = new GitError('push', 1, 'denied');
    if (!GitError.isInstance(error)) throw new Error('expected a GitError');
    expect([error.name, error.code, error.subcommand, error.exitCode, error.stderr]).toEqual([
      'GitError',
      'git_failed',
      'push',
      1,
      'denied',
    ]);
    expect(error.message).toBe('git push exited with code 1: denied');
  });
});
