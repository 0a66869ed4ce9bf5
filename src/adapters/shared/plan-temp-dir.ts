import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A run's private temp folder for the files a plan hands its program (an MCP config, a policy, a
 * system prompt, settings): made on first use, each file written readable by the user only, and
 * removed by the plan's `cleanup` once the run is over.
 */
export class PlanTempDir {
  readonly #prefix: string;
  #dir: string | undefined;

  /** `prefix` names the folder under the OS temp dir, e.g. `agent-mux-gemini-`. */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The folder, made now if it was not yet. */
  get path(): string {
    this.#dir ??= mkdtempSync(join(tmpdir(), this.#prefix));
    return this.#dir;
  }

  /** Writes `content` to `name` in the folder (mode 0600) and returns the file's path. */
  write(name: string, content: string): string {
    const file = join(this.path, name);
    writeFileSync(file, content, { mode: 0o600 });
    return file;
  }

  /** Writes `value` as indented JSON with a final newline, as {@link PlanTempDir.write} does. */
  writeJson(name: string, value: unknown): string {
    return this.write(name, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** The plan's `cleanup`: removes the folder; undefined when nothing was ever written. */
  cleanup(): (() => void) | undefined {
    const dir = this.#dir;
    return dir ? () => rmSync(dir, { recursive: true, force: true }) : undefined;
  }
}
