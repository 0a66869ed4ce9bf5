import { requireNodeVersion } from '../core/runtime/require-node-version.ts';

// As in index.ts: the Node version first, then the modules that need it.
requireNodeVersion({
  program: 'the agent-mux Action (post step)',
  remedy: 'it runs with `runs.using: node24` (action.yml); use a runner whose Node 24 is current',
  prefix: '::error::',
  to: 'stdout',
});
const { post } = await import(/* webpackMode: "eager" */ './post.ts');

await post();
