import { requireActionNode } from './require-action-node.ts';

// The runner starts this on its node24 (`runs.using` in action.yml); a runner with an older Node
// gets one error annotation instead of a stack trace. ncc bundles the eager import into this file.
requireActionNode('main');
const { run } = await import(/* webpackMode: "eager" */ './run.ts');

await run();
