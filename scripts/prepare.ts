/**
 * npm's `prepare` (after `npm ci` / `npm install` in a checkout, and when installed from git):
 * builds `lib/` with tsc so that `import('agent-mux')` works from the checkout. Where TypeScript
 * is not installed (`npm ci --omit=dev`, the app's image, which runs the sources) there is nothing
 * to build and it says so; a failed build fails the install with tsc's errors.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  process.stdout.write('agent-mux prepare: TypeScript is not installed (production install): lib/ is not built\n');
  process.exit(0);
}
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
process.exit(built.status ?? 1);
