import { markers } from '../github/github-names.ts';
import type { InstallationAccess } from './installation-access.ts';
import type { RunStore } from './store/run-store.ts';

/** What `tellUnfenced` needs. */
export interface TellUnfencedDeps {
  store: RunStore;
  access: InstallationAccess;
  log: (line: string) => void;
}

/**
 * Replies once to each queued run's issue or pull request that the app cannot start agents on
 * this host and why (`reason`, with what its operator must do); the run stays queued and starts
 * once the fence works. Once per run across replicas and restarts: a run whose issue already has
 * the reply (its marker, since the run was queued) is not told again; `told` spares the lookup in
 * this process. A failure is logged and tried again at the next call.
 */
export async function tellUnfenced(deps: TellUnfencedDeps, reason: string, told: Set<string>): Promise<number> {
  let replied = 0;
  for (const run of await deps.store.list({ states: ['queued'] })) {
    const issue = run.job.number;
    if (told.has(run.id) || run.installationId === undefined || issue === undefined) continue;
    try {
      const api = await deps.access.api(run.installationId);
      const since = new Date(run.createdAt).toISOString();
      const { data } = await api.listComments(run.job.repo, issue, { since });
      if (!data.some((comment) => comment.body.includes(markers.unfenced(run.id)))) {
        const body = `${markers.unfenced(run.id)}\n⏸️ **agent-mux** cannot start this run yet: ${reason}.\n\nThe request stays queued and starts by itself once this is fixed.`;
        await api.createComment(run.job.repo, issue, body);
        replied++;
      }
      told.add(run.id);
    } catch (error) {
      deps.log(`run ${run.id}: could not say on GitHub why it waits: ${(error as Error).message}`);
    }
  }
  return replied;
}
