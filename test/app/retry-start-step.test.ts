import { Octokit } from '@octokit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AppStartError } from '../../src/app/app-start-error.ts';
import { describeStartFailure } from '../../src/app/describe-start-failure.ts';
import { retryStartStep, startRetryPolicy } from '../../src/app/retry-start-step.ts';
import { nextDelay } from '../../src/core/retry/index.ts';
import { freePort } from '../app-e2e/probot-process.ts';
import { type FakeGitHub, startFakeGitHub } from '../support/fake-github/fake-github.ts';

/** A clock that only moves when the code under test sleeps. */
function fakeClock() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('retryStartStep', () => {
  it('gives up at once on a failure marked permanent (issue 33.19: a 401 cannot heal), with one line saying so', async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const cause = new Error('401');
    const error = await retryStartStep(
      async () => {
        throw cause;
      },
      {
        step: 'GET /app',
        describe: () => '401: wrong APP_ID or key',
        warn: (line) => lines.push(line),
        permanent: (e) => e === cause,
        now: clock.now,
        sleep: clock.sleep,
        giveUpAt: clock.now() + 300_000,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppStartError);
    expect(error).toMatchObject({ attempts: 1, cause });
    expect(clock.slept).toEqual([]);
    expect(lines).toEqual([
      'agent-mux start-up: GET /app failed (attempt 1): 401: wrong APP_ID or key; no retry can fix this, giving up',
    ]);
  });

  it('retries with the policy’s exponential backoff and logs one line per failure with the reason and the delay', async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const reasons: string[] = [];
    let calls = 0;
    const slug = await retryStartStep(
      async () => {
        calls += 1;
        if (calls <= 4) throw new Error(`boom ${calls}`);
        return 'agent-mux';
      },
      {
        step: 'GET /app',
        describe: (error) => (error as Error).message,
        warn: (line) => lines.push(line),
        onFailure: (reason) => reasons.push(reason),
        now: clock.now,
        sleep: clock.sleep,
        random: () => 0.5,
      },
    );
    expect(slug).toBe('agent-mux');
    const expected = [1, 2, 3, 4].map((n) => nextDelay(startRetryPolicy, n, () => 0.5));
    expect(clock.slept).toEqual(expected);
    // 1 s doubling, 10 % taken off by the jitter drawn at 0.5.
    expect(expected).toEqual([900, 1800, 3600, 7200]);
    expect(reasons).toEqual(['boom 1', 'boom 2', 'boom 3', 'boom 4']);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('agent-mux start-up: GET /app failed (attempt 1): boom 1; next attempt in 0.9 s');
    expect(lines[3]).toContain('(attempt 4): boom 4; next attempt in 7.2 s');
  });

  it('makes a last attempt at the deadline, then gives up with an AppStartError carrying the last reason', async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const cause = new Error('Bad credentials');
    let calls = 0;
    const attempt = retryStartStep(
      async () => {
        calls += 1;
        throw cause;
      },
      {
        step: 'GET /app',
        describe: () => '401: wrong APP_ID or key',
        warn: (line) => lines.push(line),
        giveUpAt: clock.now() + 5000,
        now: clock.now,
        sleep: clock.sleep,
        random: () => 0,
      },
    );
    const error = await attempt.catch((e: unknown) => e);
    expect(AppStartError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ step: 'GET /app', reason: '401: wrong APP_ID or key', attempts: 4, cause });
    // 1 s, 2 s, then the 4 s delay is cut to the 2 s left before the deadline.
    expect(clock.slept).toEqual([1000, 2000, 2000]);
    expect(calls).toBe(4);
    expect(lines.at(-1)).toBe('agent-mux start-up: GET /app failed (attempt 4): 401: wrong APP_ID or key; giving up');
  });

  it('stops retrying when its signal aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const stopped = new Error('stopping');
    const attempt = retryStartStep(
      async () => {
        calls += 1;
        throw new Error('no answer');
      },
      { step: 'GET /app', describe: String, warn: () => {}, signal: controller.signal, random: () => 0 },
    );
    setTimeout(() => controller.abort(stopped), 20);
    await expect(attempt).rejects.toBe(stopped);
    expect(calls).toBe(1);
  });
});

describe('describeStartFailure with real Octokit errors', () => {
  let gh: FakeGitHub | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });

  const getApp = (baseUrl: string) =>
    new Octokit({ baseUrl, auth: 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2ln' })
      .request('GET /app')
      .catch((error: unknown) => error);

  it('401: names APP_ID and the key; 404: names APP_ID and GHE_HOST; other answers give the status', async () => {
    gh = await startFakeGitHub();
    gh.failNext({ method: 'GET', path: '/app' }, { status: 401, body: { message: 'Bad credentials' } });
    gh.failNext({ method: 'GET', path: '/app' }, { status: 404, body: { message: 'Not Found' } });
    gh.failNext({ method: 'GET', path: '/app' }, { status: 503, body: { message: 'Unavailable' } });
    expect(describeStartFailure(await getApp(gh.url), gh.url)).toBe(
      `${gh.url} answered 401 "Bad credentials": the APP_ID or the private key is wrong (or the key was deleted)`,
    );
    expect(describeStartFailure(await getApp(gh.url), gh.url)).toMatch(
      /answered 404 "Not Found": no GitHub App with this APP_ID there \(check APP_ID and GHE_HOST\)$/,
    );
    expect(describeStartFailure(await getApp(gh.url), gh.url)).toBe(`${gh.url} answered 503 "Unavailable"`);
  });

  it('no answer: names the host, the network error and GHE_HOST', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const reason = describeStartFailure(await getApp(url), url);
    expect(reason).toMatch(new RegExp(`^no answer from ${url}: .*ECONNREFUSED.*check GHE_HOST`));
  });

  it('an error before any request (a malformed key) asks about PRIVATE_KEY', () => {
    expect(describeStartFailure(new Error('Invalid keyData'), 'https://api.github.com')).toBe(
      'Invalid keyData (is PRIVATE_KEY a valid PEM key?)',
    );
  });
});
