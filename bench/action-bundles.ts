import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;

/**
 * The Action bundles a benchmark runs: `bundle`, `dist/index.js` or the one in the directory
 * `AGENT_MUX_ACTION_DIST` names (a bundle built elsewhere); `baseline`, optional, the one in
 * `AGENT_MUX_BASELINE_DIST` (e.g. an older commit's `dist/`), measured alternately with it.
 */
export function actionBundles(env: NodeJS.ProcessEnv = process.env): { bundle: string; baseline?: string } {
  const bundle = join(env.AGENT_MUX_ACTION_DIST || join(root, 'dist'), 'index.js');
  return env.AGENT_MUX_BASELINE_DIST ? { bundle, baseline: join(env.AGENT_MUX_BASELINE_DIST, 'index.js') } : { bundle };
}
