/**
 * Start-up as a container runs it: the real `probot run ./src/app/index.ts` against the fake GitHub
 * while `GET /app` fails: an outage (502, which heals) is retried; a wrong APP_ID or private key
 * (401 Bad credentials), which no retry heals, ends start-up at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commentEvent, type GitHubWorld } from '../support/github-world.ts';
import { awaitingApproval, type Harness, startHarness, waitFor } from './app-harness.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Every `GET /app` answered 502 (GitHub's outage) until `w.gh.clearFaults()`. */
const outage = (w: GitHubWorld) =>
  w.gh.failNext({ method: 'GET', path: '/app' }, { status: 502, body: { message: 'Server Error' } }, Infinity);

/** Every `GET /app` answered 401: the app's credentials are wrong. */
const refuseTheApp = (w: GitHubWorld) =>
  w.gh.failNext({ method: 'GET', path: '/app' }, { status: 401, body: { message: 'Bad credentials' } }, Infinity);

async function readiness(h: Harness): Promise<{ status: number; ready: boolean; reason: string }> {
  const response = await fetch(`${h.app.url}/agent-mux/ready`);
  const body = (await response.json()) as { ready: boolean; reason: string };
  return { status: response.status, ...body };
}

/** The app's whole log lines so far: the text after the last newline may be a line half read. */
function logLines(h: Harness): string[] {
  return h.app.output().split('\n').slice(0, -1);
}

/** The app's log lines about failed start-up attempts (JSON logs: one object per line). */
function startUpLines(h: Harness): string[] {
  return logLines(h)
    .filter((line) => line.includes('agent-mux start-up:'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('probot run: start-up while GET /app fails', () => {
  it('says 503 with the reason on /agent-mux/ready, retries with backoff, and works a delivery from the outage once GitHub answers', async () => {
    const h = await startHarness(cleanups, { prepare: outage, env: { AGENT_MUX_START_TIMEOUT_SECONDS: '0' } });
    const { w } = h;

    // Probot's /ping says the process is up; readiness says it cannot work yet, and why.
    expect((await fetch(`${h.app.url}/ping`)).status).toBe(200);
    const failing = await waitFor(h, 'readiness naming the 502', async () => {
      const r = await readiness(h);
      return r.reason.includes('502') ? r : undefined;
    });
    expect(failing.status).toBe(503);
    expect(failing.ready).toBe(false);
    expect(failing.reason).toContain(`GET /app failed: ${w.gh.url} answered 502 "Server Error"`);

    // A mention during the outage is accepted and kept.
    w.gh.state.addIssue(w.repo, { number: 7, title: 'Typo', body: 'projcet', user: 'alice' });
    const mention = commentEvent(w, 7, 'alice', '@agent demo: fix the typo please');
    expect((await h.send('issue_comment', mention.payload)).status).toBe(200);

    // One warning per failed attempt with the reason and the next delay, the delays growing.
    const lines = await waitFor(h, 'two failed attempts in the log', () => {
      const found = startUpLines(h);
      return found.length >= 2 ? found : undefined;
    });
    expect(lines[0]).toMatch(
      /^agent-mux start-up: GET \/app failed \(attempt 1\): .*502.*; next attempt in \d+\.\d s$/,
    );
    expect(lines[1]).toMatch(/\(attempt 2\): .*; next attempt in \d+\.\d s$/);
    const delays = lines.map((l) => Number(/next attempt in ([\d.]+) s/.exec(l)?.[1]));
    expect(delays[1]).toBeGreaterThan(delays[0]!);
    expect(w.gh.state.checkRuns(w.repo)).toHaveLength(0);

    // Each 503 probe is logged on one line with the reason, not with a dozen lines of a made-up stack.
    const probes = logLines(h).filter((line) => line.includes('/agent-mux/ready 503'));
    expect(probes.length).toBeGreaterThan(0);
    for (const line of probes) {
      const entry = JSON.parse(line) as { err?: { stack?: string; message?: string } };
      expect(entry.err?.stack).not.toContain('\n');
      expect(entry.err?.message).toMatch(/^not ready: (starting|GET \/app failed)/);
    }

    // GitHub answers again: the app becomes ready and works the delivery it kept.
    w.gh.clearFaults();
    const healthy = await waitFor(h, 'readiness 200', async () => {
      const r = await readiness(h);
      return r.status === 200 ? r : undefined;
    });
    expect(healthy).toMatchObject({ ready: true, reason: 'ready' });
    // `probot run` gets the app that collects start-up's garbage before it says ready. The line
    // comes through the app's stdout pipe, which may deliver it after the readiness answer.
    const ready = /agent-mux is ready: app [\w-]+, store open, \d+ worker\(s\), start-up garbage collected in \d+ ms/;
    await waitFor(h, 'the ready line in the log', () => (ready.test(h.app.output()) ? true : undefined));
    const pending = await awaitingApproval(h);
    expect(pending.name).toBe('agent-mux / demo');
    w.gh.assertNoViolations();
  }, 120_000);

  it('exits with status 1, the reason in its log, once GET /app failed for AGENT_MUX_START_TIMEOUT_SECONDS', async () => {
    const h = await startHarness(cleanups, { prepare: outage, env: { AGENT_MUX_START_TIMEOUT_SECONDS: '2' } });
    const code = await new Promise<number | null>((resolve) => {
      if (h.app.child.exitCode !== null) resolve(h.app.child.exitCode);
      else h.app.child.once('exit', (exitCode) => resolve(exitCode));
    });
    expect(code).toBe(1);
    // 'exit' can come before the last of the child's stdout has been read from the pipe.
    const fatal = await waitFor(h, 'the fatal line', () =>
      logLines(h)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((entry) => entry.level === 60),
    );
    expect(fatal.msg).toMatch(/^agent-mux could not start: GET \/app failed (?:once|\d+ times); last: .*answered 502/);
    expect(fatal.msg).toContain('exiting with status 1');
    expect(startUpLines(h).at(-1)).toMatch(/; giving up$/);
  }, 60_000);

  it('401 (a wrong APP_ID or key, which no retry heals): exits with status 1 after the first attempt, naming both', async () => {
    const started = Date.now();
    // It may exit before it answers /ping (the harness then says so with the whole output), or just after.
    const output = await startHarness(cleanups, { prepare: refuseTheApp }).then(
      async (h) => {
        const code = await new Promise<number | null>((resolve) => {
          if (h.app.child.exitCode !== null) resolve(h.app.child.exitCode);
          else h.app.child.once('exit', (exitCode) => resolve(exitCode));
        });
        expect(code).toBe(1);
        await waitFor(h, 'the fatal line', () => (h.app.output().includes('"level":60') ? true : undefined));
        return h.app.output();
      },
      (error: Error) => {
        expect(error.message).toMatch(/^probot run exited \(1\) before it was ready/);
        return error.message;
      },
    );
    // Not the default 300 s of retries.
    expect(Date.now() - started).toBeLessThan(60_000);
    const entries = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const fatal = entries.find((entry) => entry.level === 60);
    expect(fatal?.msg).toMatch(
      /^agent-mux could not start: GET \/app failed once; last: .*answered 401 "Bad credentials"/,
    );
    expect(fatal?.msg).toContain('the APP_ID or the private key is wrong');
    expect(entries.map((e) => e.msg).filter((msg) => msg.includes('agent-mux start-up:'))).toEqual([
      expect.stringMatching(/\(attempt 1\): .*401.*; no retry can fix this, giving up$/),
    ]);
  }, 60_000);
});
