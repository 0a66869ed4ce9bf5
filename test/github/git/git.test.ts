import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { authConfig, authEnv, redactToken, runGit, spawnGit } from '../../../src/github/git/git.ts';
import { GitError } from '../../../src/github/git/git-error.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

const token = 'ghs_SuperSecretToken123';
const basic = Buffer.from(`x-access-token:${token}`).toString('base64');

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** A local HTTP server that answers every request with `status` and records the headers it got. */
async function recordingServer(
  status: number,
): Promise<{ url: string; requests: IncomingHttpHeaders[]; server: Server }> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    requests.push(request.headers);
    response.writeHead(status, status === 401 ? { 'WWW-Authenticate': 'Basic realm="test"' } : {});
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/owner/repo.git`, requests, server };
}

describe('runGit', () => {
  test('resolves with standard output, final newline stripped', async () => {
    await expect(runGit(['rev-parse', '--is-inside-work-tree'], { cwd: fixture.clone })).resolves.toBe('true');
  });

  test('passes extra environment variables', async () => {
    const output = await runGit(['var', 'GIT_AUTHOR_IDENT'], {
      cwd: fixture.clone,
      env: { GIT_AUTHOR_NAME: 'Env Author', GIT_AUTHOR_EMAIL: 'env@example.com' },
    });
    expect(output).toMatch(/^Env Author <env@example.com> /);
  });

  test('feeds input to stdin', async () => {
    await expect(runGit(['hash-object', '--stdin'], { cwd: fixture.clone, input: 'hello\n' })).resolves.toBe(
      'ce013625030ba8dba906f756967f9e9ca394464a',
    );
  });

  test('a failure throws GitError with the subcommand, exit code and stderr', async () => {
    const error = await runGit(['-c', 'core.quotePath=false', 'checkout', 'no-such-branch'], {
      cwd: fixture.clone,
    }).catch((caught: unknown) => caught);
    expect(GitError.isInstance(error)).toBe(true);
    const gitError = error as GitError;
    expect(gitError.code).toBe('git_failed');
    expect(gitError.subcommand).toBe('checkout');
    expect(gitError.exitCode).toBe(1);
    expect(gitError.stderr).toContain("pathspec 'no-such-branch' did not match");
    expect(gitError.message).toContain('git checkout exited with code 1');
  });

  test('git that cannot start (missing directory) throws GitError without an exit code', async () => {
    const error = await runGit(['status'], { cwd: join(fixture.dir, 'missing') }).catch((caught: unknown) => caught);
    expect(GitError.isInstance(error)).toBe(true);
    expect((error as GitError).exitCode).toBeUndefined();
  });

  test.each([
    ['the token', token],
    ['the base64 credential', basic],
    ['the base64 of the bare token', Buffer.from(token).toString('base64')],
  ])('redacts %s from the message and stderr', async (_name, secret) => {
    const error = await runGit(['rev-parse', secret], { cwd: fixture.clone, token }).catch((caught: unknown) => caught);
    expect(GitError.isInstance(error)).toBe(true);
    const gitError = error as GitError;
    expect(gitError.stderr).toContain('***');
    for (const text of [gitError.message, gitError.stderr, String(gitError.stack), JSON.stringify(gitError)]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(basic);
    }
  });

  test('spawnGit resolves whatever the exit code, stderr redacted', async () => {
    const result = await spawnGit(['rev-parse', token], { cwd: fixture.clone, token });
    expect(result.exitCode).toBe(128);
    expect(result.stderr).toContain("ambiguous argument '***'");
    expect(result.stderr).not.toContain(token);
  });

  test('authenticates HTTPS with the extra header from the environment only', async () => {
    const { url, requests, server } = await recordingServer(404);
    try {
      const error = await runGit(['ls-remote', url], { cwd: fixture.clone, token, allowHttpProtocol: true }).catch(
        (caught: unknown) => caught,
      );
      expect(GitError.isInstance(error)).toBe(true);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests[0]?.authorization).toBe(`basic ${basic}`);
      expect(String((error as GitError).message)).not.toContain(basic);
      const config = await readFile(join(fixture.clone, '.git', 'config'), 'utf8');
      expect(config).not.toContain(token);
      expect(config).not.toContain(basic);
      expect(config).not.toContain('extraheader');
    } finally {
      server.close();
    }
  });

  test('the token replaces an extra header set in the repository configuration', async () => {
    const { url, requests, server } = await recordingServer(404);
    try {
      await git(fixture.clone, 'config', 'http.extraheader', 'AUTHORIZATION: basic b2xkOm9sZA==');
      await runGit(['ls-remote', url], { cwd: fixture.clone, token, allowHttpProtocol: true }).catch(() => undefined);
      expect(requests[0]?.authorization).toBe(`basic ${basic}`);
    } finally {
      server.close();
    }
  });

  test('the token replaces an extra header configured for the URL (actions/checkout persists one)', async () => {
    const { url, requests, server } = await recordingServer(404);
    try {
      const origin = new URL(url).origin;
      await git(fixture.clone, 'config', `http.${origin}/.extraheader`, 'AUTHORIZATION: basic b2xkOm9sZA==');
      await runGit(['ls-remote', url], { cwd: fixture.clone, token, serverUrl: origin, allowHttpProtocol: true }).catch(
        () => undefined,
      );
      expect(requests[0]?.authorization).toBe(`basic ${basic}`);
    } finally {
      server.close();
    }
  });

  test('never prompts for credentials: a 401 fails at once', async () => {
    const { url, server } = await recordingServer(401);
    try {
      const error = await runGit(['ls-remote', url], { cwd: fixture.clone, allowHttpProtocol: true }).catch(
        (caught: unknown) => caught,
      );
      expect(GitError.isInstance(error)).toBe(true);
      expect((error as GitError).subcommand).toBe('ls-remote');
    } finally {
      server.close();
    }
  });
});

describe('authConfig, authEnv and redactToken', () => {
  test('no token, no settings', () => {
    expect(authConfig(undefined)).toEqual([]);
    expect(authConfig('')).toEqual([]);
    expect(authEnv(undefined)).toEqual({ GIT_CONFIG_COUNT: '0' });
  });

  test('the header resets inherited ones first, generally and for the server URL', () => {
    const header = `AUTHORIZATION: basic ${basic}`;
    expect(authConfig(token, 'https://ghe.example.com/api/v3')).toEqual([
      ['http.extraheader', ''],
      ['http.extraheader', header],
      ['http.https://ghe.example.com/.extraheader', ''],
      ['http.https://ghe.example.com/.extraheader', header],
    ]);
    expect(authConfig(token, 'not a url')).toEqual([
      ['http.extraheader', ''],
      ['http.extraheader', header],
    ]);
    expect(authEnv(token, 'not a url')).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.extraheader',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'http.extraheader',
      GIT_CONFIG_VALUE_1: header,
    });
  });

  test('redacts every occurrence', () => {
    expect(redactToken(`a ${token} b ${basic} c ${token}`, token)).toBe('a *** b *** c ***');
    expect(redactToken('nothing here', undefined)).toBe('nothing here');
  });
});
