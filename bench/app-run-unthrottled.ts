/**
 * The app's server as `probot run ./src/app/index.ts` starts it (probot's own `run()`: the same
 * environment, server and webhook middleware), except that the installation Octokit's throttling
 * is off. Probot's default throttle spaces write requests one second apart (three for comments
 * and pull requests) per process, which would make a replica's throughput the throttle's, not
 * the app's. test/app/app-world.ts disables it the same way.
 */
import { ProbotOctokit, run } from 'probot';
import { agentMuxApp } from '../src/app/index.ts';

const Octokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  throttle: { ...(options.throttle as object), enabled: false },
}));

await run(agentMuxApp, { Octokit });
