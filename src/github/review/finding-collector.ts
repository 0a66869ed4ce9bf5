import { anchorText } from './anchor-text.ts';
import type { DiffAnchors } from './diff-anchors.ts';
import { type Finding, firstLineOf } from './finding.ts';
import type { LocatedFinding } from './reconcile-findings.ts';

/** Where a finding will be shown: on its diff lines, or in the review's body. */
export type Placement = 'inline' | 'body';

/**
 * The findings of one review as the agent reports them (by `report_finding`, or at the end from its
 * answer's JSON block), each with its anchored code on the head. A finding reported twice (same
 * file, lines and title) is kept once.
 */
export class FindingCollector {
  readonly #found: LocatedFinding[] = [];
  readonly #anchors: DiffAnchors | undefined;
  readonly #max: number;
  readonly #scope: ReadonlySet<string> | undefined;

  /** `scope`: the only files this review covers (an incremental review); absent, any file. */
  constructor(options: { anchors?: DiffAnchors; max?: number; scope?: readonly string[] } = {}) {
    this.#anchors = options.anchors;
    this.#max = options.max ?? 50;
    this.#scope = options.scope === undefined ? undefined : new Set(options.scope);
  }

  /** Why `finding` is outside what this review covers, or undefined when it is inside. */
  outOfScope(finding: Finding): string | undefined {
    if (this.#scope === undefined || this.#scope.has(finding.path)) return undefined;
    return `this review covers only the files changed since the last review (${[...this.#scope].join(', ')}); ${finding.path} is not one of them`;
  }

  /** Keeps `finding` with the text of its lines in `content` (the file on the head); says where it will show. */
  add(finding: Finding, content: string): { placement: Placement; duplicate: boolean; full: boolean } {
    const placement = this.placementOf(finding);
    const duplicate = this.#found.some(
      ({ finding: kept }) =>
        kept.path === finding.path &&
        kept.line === finding.line &&
        kept.startLine === finding.startLine &&
        kept.title === finding.title,
    );
    const full = this.#found.length >= this.#max;
    if (!duplicate && !full) {
      this.#found.push({ finding, anchor: anchorText(content, firstLineOf(finding), finding.line) });
    }
    return { placement, duplicate, full };
  }

  placementOf(finding: Finding): Placement {
    if (!this.#anchors) return 'inline';
    return this.#anchors.covers(finding.path, firstLineOf(finding), finding.line) ? 'inline' : 'body';
  }

  findings(): readonly LocatedFinding[] {
    return this.#found;
  }

  get size(): number {
    return this.#found.length;
  }
}
