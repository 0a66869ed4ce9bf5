import { readdirSync } from 'node:fs';
import type { LiveSpec } from './live-spec.ts';

const specsDir = new URL('./specs/', import.meta.url);

/** Every CLI's live spec (test/live/specs/<adapter>.live.ts), optionally only the named adapters. */
export async function loadSpecs(only: readonly string[] = []): Promise<LiveSpec[]> {
  let files: string[] = [];
  try {
    files = readdirSync(specsDir).filter((f) => f.endsWith('.live.ts'));
  } catch {
    return [];
  }
  const specs: LiveSpec[] = [];
  for (const file of files.sort()) {
    const module = (await import(new URL(file, specsDir).href)) as { spec?: LiveSpec };
    if (module.spec && (only.length === 0 || only.includes(module.spec.adapter))) specs.push(module.spec);
  }
  return specs;
}
