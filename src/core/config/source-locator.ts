import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

type Segment = PropertyKey;

/**
 * Maps field paths of a parsed configuration to 1-based lines of its text. The text is parsed
 * with the `yaml` package (JSON is YAML too), lazily, only when a line is first asked for.
 */
export class SourceLocator {
  readonly #text: string;
  #parsed: { contents: unknown; lines: LineCounter } | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  #document(): { contents: unknown; lines: LineCounter } {
    if (!this.#parsed) {
      const lines = new LineCounter();
      const doc = parseDocument(this.#text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
      this.#parsed = { contents: doc.contents, lines };
    }
    return this.#parsed;
  }

  /** The 1-based line of an offset in the text. */
  lineAt(offset: number): number {
    return this.#document().lines.linePos(offset).line;
  }

  /**
   * The line of the field at `path`: its value's line for a scalar, its key's line for a map or
   * list (or with `at: 'key'`). When the path does not exist (a missing field), the line of the
   * deepest part that does. Undefined when not even the document could be located.
   */
  line(path: readonly Segment[], at: 'key' | 'value' = 'value'): number | undefined {
    const { contents } = this.#document();
    let node: unknown = contents;
    let offset = rangeStart(contents);
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => keyText(item.key) === String(segment));
        if (!pair) return this.#lineOf(offset);
        node = pair.value;
        offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
      } else if (isSeq(node)) {
        const item: unknown = typeof segment === 'number' ? node.items[segment] : undefined;
        if (item === undefined) return this.#lineOf(offset);
        node = item;
        offset = rangeStart(item) ?? offset;
      } else {
        return this.#lineOf(offset);
      }
    }
    if (at === 'value' && isScalar(node)) offset = rangeStart(node) ?? offset;
    return this.#lineOf(offset);
  }

  #lineOf(offset: number | undefined): number | undefined {
    return offset === undefined ? undefined : this.lineAt(offset);
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : undefined;
}

const locators = new WeakMap<object, { file: string; locator: SourceLocator }>();

/** Remembers where a parsed configuration came from, so later checks can name lines. */
export function attachSource(config: object, file: string, locator: SourceLocator): void {
  locators.set(config, { file, locator });
}

/** The 1-based line of `path` in the file a configuration was parsed from, if known. */
export function lineOfConfigPath(config: object, path: readonly Segment[], at?: 'key' | 'value'): number | undefined {
  return locators.get(config)?.locator.line(path, at);
}
