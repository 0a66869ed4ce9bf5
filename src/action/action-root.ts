import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * agent-mux's own checkout (under the runner's `_actions`): the nearest directory above the
 * running module that holds `action.yml`, whether the module is the bundle (`dist/index.js`) or
 * the sources (`src/action/main-steps/start-runner-fence.ts`, as the tests run them). Falls back to the directory above the
 * module's own.
 */
export function actionRoot(moduleUrl: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  let dir = here;
  for (let up = 0; up < 4; up++) {
    if (existsSync(join(dir, 'action.yml'))) return dir;
    dir = dirname(dir);
  }
  return dirname(here);
}
