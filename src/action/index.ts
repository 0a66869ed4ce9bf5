import { requireNodeVersion } from '../core/runtime/require-node-version.ts';

// The runner starts this on its node24 (`runs.using` in action.yml); a runner with an older Node
// gets one error annotation instead of a stack trace. ncc bundles the eager import into this file.
requireNodeVersion({
  program: 'the agent-mux Action',
  remedy: 'it runs with `runs.using: node24` (action.yml); use a runner whose Node 24 is current',
  prefix: '::error::',
  to: 'stdout',
});
const { run } = await import(/* webpackMode: "eager" */ './run.ts');

await run();
