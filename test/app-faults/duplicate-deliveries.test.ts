/**
 * GitHub delivers at least once: every mention's delivery arrives twice (same `X-GitHub-Delivery`),
 * in a shuffled order, at the real `probot run`. Each mention must still run exactly once.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { checkName, createFaultWorld, type FaultWorld, shuffled, waitFor } from './fault-world.ts';

const MENTIONS = 10;
/** The demo agent may write without asking, and no pull request is opened: runs finish on their own. */
const CONFIG = `
agents:
  demo:
    adapter: demo
tools:
  policy:
    default: allow
git:
  pullRequests: false
`;

let world: FaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

it(`runs each of ${MENTIONS} mentions once when every delivery arrives twice, shuffled`, async () => {
  world = await createFaultWorld(CONFIG);
  const { w } = world;
  const app = await world.startApp({
    AGENT_MUX_WORKERS: '4',
    AGENT_MUX_MAX_RUNS_PER_REPO: '4',
    AGENT_MUX_GITHUB_THROTTLE: 'off',
  });
  const numbers = Array.from({ length: MENTIONS }, (_, i) => 100 + i);
  const deliveries = numbers.map((number) => ({
    id: randomUUID(),
    payload: world!.mention(number, '@agent demo: fix the typo please'),
  }));
  const sends = shuffled([...deliveries, ...deliveries]);
  // Half at once (a burst of concurrent redeliveries), half one by one.
  const half = Math.floor(sends.length / 2);
  const burst = await Promise.all(sends.slice(0, half).map((d) => world!.send(app, 'issue_comment', d.payload, d.id)));
  const serial = [];
  for (const d of sends.slice(half)) serial.push(await world.send(app, 'issue_comment', d.payload, d.id));
  expect([...burst, ...serial].map((r) => r.status)).toEqual(sends.map(() => 200));

  const explain = () => world!.output();
  const done = await waitFor(
    `${MENTIONS} completed check runs`,
    () => {
      const checks = w.gh.state.checkRuns(w.repo);
      return checks.length >= MENTIONS && checks.every((c) => c.status === 'completed') ? checks : undefined;
    },
    explain,
    90_000,
  );
  // Late redeliveries (GitHub's "Redeliver" button, after the runs finished) start nothing either.
  for (const d of deliveries.slice(0, 3))
    expect((await world.send(app, 'issue_comment', d.payload, d.id)).status).toBe(200);
  // Let a duplicate that slipped through show itself before counting.
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const checks = w.gh.state.checkRuns(w.repo);
  expect(checks).toHaveLength(MENTIONS);
  expect(done.map((c) => c.name)).toEqual(numbers.map(() => checkName('demo')));
  expect(checks.map((c) => c.conclusion)).toEqual(numbers.map(() => 'success'));
  expect(new Set(checks.map((c) => c.externalId)).size).toBe(MENTIONS);

  const store = createSqliteRunStore({ file: join(world.root, 'data', 'agent-mux.db') });
  try {
    const runs = await store.list();
    expect(runs).toHaveLength(MENTIONS);
    expect(runs.map((r) => r.issueKey).sort()).toEqual(numbers.map((n) => `octo/demo#${n}`).sort());
    expect(runs.every((r) => r.state === 'succeeded' && r.attempts === 0)).toBe(true);
    expect(new Set(runs.map((r) => r.checkRunId))).toEqual(new Set(checks.map((c) => c.id)));
  } finally {
    await store.close();
  }
  // One tracking comment per issue.
  for (const number of numbers) {
    const tracking = w.gh.state.comments(w.repo, number).filter((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking, `issue #${number}`).toHaveLength(1);
  }
  w.gh.assertNoViolations();
}, 150_000);
