import { afterEach, describe, expect, it } from 'vitest';
import type { FenceProbe } from '../../src/core/sandbox/index.ts';
import { commentEvent } from '../support/github-world.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// Issue 31: the app in a container whose seccomp profile blocks user namespaces (bwrap present, the
// probe fails as it fails there). It never waits in silence: not ready with the reason, a reply on
// the mention saying why and what to do, the run kept queued — and started once the fence works.
const REFUSED =
  'bwrap failed (exit 1): bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces';

describe('the app on a host where the fence does not work', () => {
  it('is not ready (503 reason), replies on the mention once, keeps the run queued, and runs it once the fence works', async () => {
    let probe: FenceProbe = { ok: false, message: REFUSED };
    let probes = 0;
    const a = await createAppWorld({
      startLoops: true,
      fenceRetryMs: 100,
      fenceProbe: async () => {
        probes++;
        return probe;
      },
    });
    world = a;
    expect(a.app.readiness()).toMatchObject({ ready: false });
    expect(a.app.readiness().reason).toContain('agents cannot be started on this host: the fence does not work');
    expect(a.app.readiness().reason).toContain('No permissions to create new namespace');

    a.w.gh.state.addIssue(a.w.repo, { number: 5, title: 'Typo', body: 'Fix it.', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 5, 'alice', '@agent fix the typo').payload);
    const reply = await waitFor(
      () => a.w.gh.state.comments(a.w.repo, 5).find((c) => c.body.includes('agent-mux:unfenced:')),
      'the reply saying why the run waits',
    );
    expect(reply.body).toContain('cannot start this run yet');
    expect(reply.body).toContain('apt-get install bubblewrap');
    expect(reply.body).toContain('starts by itself once this is fixed');
    const [queued] = await a.store.list();
    expect(queued?.state).toBe('queued');
    // Probed again and again while it fails, but said once.
    await waitFor(() => (probes > 5 ? true : undefined), 'more probes');
    expect(a.w.gh.state.comments(a.w.repo, 5).filter((c) => c.body.includes('agent-mux:unfenced:'))).toHaveLength(1);
    expect(a.w.gh.state.checkRuns(a.w.repo)).toHaveLength(0);

    // The operator fixes the host: ready again, and the queued run starts by itself.
    probe = { ok: true };
    await waitFor(() => (a.app.readiness().ready ? true : undefined), 'readiness');
    // It starts: the demo agent gets to its first approval question, on the check run.
    await waitFor(async () => {
      const [r] = await a.store.list();
      return r?.state === 'awaiting_approval' ? r : undefined;
    }, 'the run to start');
    expect(a.w.gh.state.checkRuns(a.w.repo)).toHaveLength(1);
  });
});
