import type { CommitComparison } from '../github-api.ts';
import type { ReviewedFinding } from './review-state.ts';

/** What a push to a reviewed pull request reviews (`review.incremental`). */
export const INCREMENTAL_MODES = ['off', 'new-commits', 'findings'] as const;
export type IncrementalMode = (typeof INCREMENTAL_MODES)[number];

/**
 * What one review covers: the whole pull request; the files the commits since the last reviewed
 * head changed (`since`); or nothing, so no agent runs (the earlier findings are still kept or
 * resolved by their code on the new head).
 */
export type ReviewScope =
  | { kind: 'whole'; why: string }
  | { kind: 'files'; since: string; files: string[]; why: string }
  | { kind: 'none'; since: string; why: string };

export interface ReviewScopeInput {
  mode: IncrementalMode;
  /** Whether a push started this review (`pull_request` synchronize); a mention reviews it all. */
  push: boolean;
  /** The head the last review of this pull request reviewed, when there was one. */
  reviewedSha: string | undefined;
  headSha: string;
  /** How the head relates to `reviewedSha` (undefined when not compared). */
  comparison: CommitComparison | undefined;
  /** The files of the pull request's diff. */
  pullFiles: readonly string[];
  /** The findings earlier reviews left. */
  findings: readonly ReviewedFinding[];
}

/** Whether a review will want `comparison` (the caller compares the commits only then). */
export function needsComparison(input: Pick<ReviewScopeInput, 'mode' | 'push' | 'reviewedSha' | 'headSha'>): boolean {
  return input.mode !== 'off' && input.push && input.reviewedSha !== undefined && input.reviewedSha !== input.headSha;
}

/**
 * Decides what a review covers. With `review.incremental` off, or on a mention, or without an
 * earlier review the head descends from, the whole pull request. Otherwise, `new-commits`: the
 * pull request's files the new commits changed (none: no agent run); `findings`: the files of open
 * findings the new commits changed (none: no agent run).
 */
export function reviewScope(input: ReviewScopeInput): ReviewScope {
  const { mode, reviewedSha, comparison } = input;
  if (mode === 'off') return { kind: 'whole', why: 'review.incremental is off' };
  if (!input.push) return { kind: 'whole', why: 'a request reviews the whole pull request' };
  if (reviewedSha === undefined) return { kind: 'whole', why: 'no earlier review of this pull request' };
  const since = reviewedSha.slice(0, 7);
  if (reviewedSha === input.headSha) return { kind: 'none', since: reviewedSha, why: `${since} was reviewed already` };
  if (comparison === undefined || (comparison.status !== 'ahead' && comparison.status !== 'identical')) {
    return { kind: 'whole', why: `the head does not descend from ${since}, the last head reviewed` };
  }
  if (comparison.files === undefined) {
    return { kind: 'whole', why: `too many files changed since ${since} to review them apart` };
  }
  const changed = new Set(comparison.files);
  if (mode === 'new-commits') {
    const files = input.pullFiles.filter((path) => changed.has(path));
    return files.length === 0
      ? { kind: 'none', since: reviewedSha, why: `the commits since ${since} change none of the pull request's files` }
      : { kind: 'files', since: reviewedSha, files, why: `the files changed since ${since}` };
  }
  const open = new Set(input.findings.filter((f) => f.status === 'open').map((f) => f.path));
  const files = [...open].filter((path) => changed.has(path)).sort();
  return files.length === 0
    ? { kind: 'none', since: reviewedSha, why: `the commits since ${since} change no file an open finding is in` }
    : { kind: 'files', since: reviewedSha, files, why: `the files of open findings changed since ${since}` };
}
