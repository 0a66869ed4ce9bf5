import { truncate } from './markdown.ts';

/**
 * The files an agent wrote, in order and without repeats: a tool's relative path and the absolute
 * path of its `file_output` name the same file, so a path that ends another one already kept is
 * not added again.
 */
export class WrittenFiles {
  /** The files, in the order they were first written. */
  readonly list: string[] = [];
  readonly #files = new Set<string>();
  readonly #suffixes = new Set<string>();

  /** Adds a file unless it (or a path it ends, or ends) is already kept. */
  add(file: string): void {
    const path = truncate(file, 1000);
    if (this.#files.has(path) || this.#suffixes.has(path)) return;
    const suffixes: string[] = [];
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const suffix = path.slice(slash + 1);
      if (this.#files.has(suffix)) return;
      if (suffix !== '') suffixes.push(suffix);
    }
    for (const suffix of suffixes) this.#suffixes.add(suffix);
    this.#files.add(path);
    this.list.push(path);
  }
}
