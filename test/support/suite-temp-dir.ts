import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: the suite's temporary files go under one directory of its own (TMPDIR,
 * which `os.tmpdir()` and the programs the tests start read), removed when the suite ends. What a
 * test left there is named first, so a leak stays visible though it is cleaned up.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'agent-mux-suite-'));
  // As /tmp is: tests that run a program as another user (nobody) make their directories here too.
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => {
    const left = leftBehind(root);
    if (left.length > 0) {
      const kinds = [...new Set(left.map((name) => name.replace(/[-_.]?[A-Za-z0-9]{6}$/, '')))].sort();
      console.log(`[suite-temp-dir] ${left.length} temporary entries left by tests, removed: ${kinds.join(', ')}`);
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}

function leftBehind(root: string): string[] {
  try {
    return readdirSync(root);
  } catch {
    return [];
  }
}
