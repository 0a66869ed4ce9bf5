import * as core from '@actions/core';
import { createGitHubApi } from '../github/create-github-api.ts';
import { createOctokit } from '../github/create-octokit.ts';
import { STATE } from './action-state.ts';
import { stopLeftoverAgents } from './stop-leftover-agents.ts';

const STOPPED_NOTE =
  '**Stopped:** the job ended before agent-mux could finish (the workflow run was cancelled or the runner stopped the step).';

/**
 * The Action's `post:` step. When the main step finished, there is nothing to do. When it was
 * killed: it kills the agent processes the run left behind, concludes the check run that would
 * otherwise stay in progress, and notes the stop in the tracking comment. (The main step writes
 * no credentials to disk: the git token only ever travels on git's command line.)
 */
export async function post(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    if (core.getState(STATE.done) === 'true') {
      core.info('agent-mux: the run finished; nothing to clean up');
      return;
    }
    const runId = core.getState(STATE.runId);
    if (!runId) {
      core.info('agent-mux: no run was started; nothing to clean up');
      return;
    }
    // This step's agents only: other jobs of the same workflow run may share the runner.
    const marker = core.getState(STATE.agentMarker);
    const killed = marker ? await stopLeftoverAgents(marker) : [];
    if (killed.length > 0) core.info(`stopped ${killed.length} agent process(es) left running: ${killed.join(', ')}`);

    const checkRunId = Number(core.getState(STATE.checkRunId));
    const commentId = Number(core.getState(STATE.commentId));
    const [owner, repo] = (env.GITHUB_REPOSITORY ?? '/').split('/');
    if (!owner || !repo || (!checkRunId && !commentId)) return;
    const token = core.getInput('github-token');
    core.setSecret(token);
    const api = createGitHubApi(
      createOctokit({ token, baseUrl: env.GITHUB_API_URL ?? 'https://api.github.com', userAgent: 'agent-mux-action' }),
    );
    const ref = { owner, repo };
    if (checkRunId) {
      await api.updateCheckRun(ref, checkRunId, {
        status: 'completed',
        conclusion: 'cancelled',
        completedAt: new Date().toISOString(),
        output: { title: 'agent-mux: stopped', summary: STOPPED_NOTE },
      });
      core.info(`concluded check run ${checkRunId} as cancelled`);
    }
    if (commentId) {
      const comment = await api.getComment(ref, commentId);
      if (!comment.body.includes(STOPPED_NOTE))
        await api.updateComment(ref, commentId, `${comment.body}\n\n${STOPPED_NOTE}`);
    }
  } catch (error) {
    core.warning(`agent-mux cleanup: ${error instanceof Error ? error.message : String(error)}`);
  }
}
