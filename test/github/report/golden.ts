import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

/** Compares `actual` with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead. */
export function expectGolden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url).pathname;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`golden file ${name} was missing: written, check it and re-run`);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
