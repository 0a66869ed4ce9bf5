import { locateAnchor } from './anchor-text.ts';
import { type Finding, firstLineOf } from './finding.ts';
import { findingFingerprint, titleSimilarity } from './finding-fingerprint.ts';
import type { ReviewedFinding, ReviewState } from './review-state.ts';

/** A finding the agent reported on this head, with the code it is anchored to there. */
export interface LocatedFinding {
  finding: Finding;
  /** `anchorText` of its lines on the head; undefined when the lines are not in the file. */
  anchor: string | undefined;
}

/** What to do on GitHub after a review of `headSha`, and the state to keep. */
export interface Reconciliation {
  /** New findings to post (their ids are in `state`). */
  post: { id: string; located: LocatedFinding }[];
  /** Reported again while still open: not posted again. */
  repeated: { prior: ReviewedFinding; finding: Finding }[];
  /** Reported again though a person dismissed it: not posted. */
  suppressed: { prior: ReviewedFinding; finding: Finding }[];
  /** Open findings whose code is gone on this head: their threads get resolved, with `reason`. */
  resolve: { prior: ReviewedFinding; reason: string }[];
  state: ReviewState;
}

/** How alike two titles on the same code must be to be one finding, when that code has several. */
const SAME_TITLE = 0.34;

/**
 * Matches this head's findings against what earlier reviews posted: the same finding (same file,
 * same anchored code, a like title) is never posted twice, one a person dismissed is not raised
 * again, and an open one whose code no longer exists (changed or deleted) is resolved. An open
 * finding whose code is still there but that the agent did not report again stays open: an
 * agent's silence is not a fix.
 */
export function reconcileFindings(input: {
  prior: ReviewState;
  reported: readonly LocatedFinding[];
  headSha: string;
  /** The file's text on the head commit, or undefined when the file is gone. */
  contentAt: (path: string) => string | undefined;
}): Reconciliation {
  const { prior, reported, headSha, contentAt } = input;
  const result: Reconciliation = { post: [], repeated: [], suppressed: [], resolve: [], state: prior };
  const findings = prior.findings.map((finding) => ({ ...finding }));
  const taken = new Set<ReviewedFinding>();

  for (const located of reported) {
    const match = matchPrior(findings, located, taken);
    if (match?.status === 'dismissed') {
      taken.add(match);
      result.suppressed.push({ prior: match, finding: located.finding });
      continue;
    }
    if (match?.status === 'open') {
      taken.add(match);
      Object.assign(match, placeOf(located.finding), { heldOn: headSha });
      result.repeated.push({ prior: match, finding: located.finding });
      continue;
    }
    const id = uniqueId(findings, located);
    const posted: ReviewedFinding = {
      id,
      ...placeOf(located.finding),
      anchor: located.anchor ?? '',
      severity: located.finding.severity,
      title: located.finding.title,
      status: 'open',
      postedOn: headSha,
      heldOn: headSha,
    };
    findings.push(posted);
    taken.add(posted);
    result.post.push({ id, located });
  }

  for (const finding of findings) {
    if (finding.status !== 'open' || taken.has(finding)) continue;
    const moved = whereNow(finding, contentAt(finding.path));
    if (typeof moved === 'string') {
      finding.status = 'resolved';
      finding.closedBecause = moved;
      result.resolve.push({ prior: finding, reason: moved });
    } else {
      const span = finding.line - firstLineOf(finding);
      Object.assign(finding, { line: moved + span }, finding.startLine === undefined ? {} : { startLine: moved });
    }
  }
  result.state = { ...prior, reviewedSha: headSha, findings };
  return result;
}

/** The earlier finding this one is: same file and anchored code, and a like title where that code has several. */
function matchPrior(
  findings: readonly ReviewedFinding[],
  located: LocatedFinding,
  taken: ReadonlySet<ReviewedFinding>,
): ReviewedFinding | undefined {
  if (located.anchor === undefined) return undefined;
  const sameCode = findings.filter(
    (prior) => !taken.has(prior) && prior.path === located.finding.path && prior.anchor === located.anchor,
  );
  const ranked = sameCode
    .map((prior) => ({ prior, alike: titleSimilarity(prior.title, located.finding.title) }))
    .sort((a, b) => b.alike - a.alike);
  const best = ranked[0];
  if (!best) return undefined;
  const onlyOneThere = sameCode.filter((prior) => prior.status !== 'resolved').length === 1;
  if (best.alike >= SAME_TITLE) return best.prior;
  return onlyOneThere && best.prior.status !== 'resolved' ? best.prior : undefined;
}

/** The first line the finding's code is on now, or why it no longer holds. */
function whereNow(finding: ReviewedFinding, content: string | undefined): number | string {
  if (content === undefined) return `\`${finding.path}\` no longer exists.`;
  if (finding.anchor === '') return 'the lines it was about are gone.';
  const at = locateAnchor(content, finding.anchor, firstLineOf(finding));
  return at ?? 'the code it was about has changed.';
}

function placeOf(finding: Finding): Pick<ReviewedFinding, 'path' | 'line' | 'startLine'> {
  return {
    path: finding.path,
    line: finding.line,
    ...(finding.startLine === undefined || finding.startLine === finding.line ? {} : { startLine: finding.startLine }),
  };
}

function uniqueId(findings: readonly ReviewedFinding[], located: LocatedFinding): string {
  const { path, title, line } = located.finding;
  const base = findingFingerprint(path, located.anchor ?? `line ${line}`, title);
  let id = base;
  for (let n = 2; findings.some((finding) => finding.id === id); n += 1) id = `${base}-${n}`;
  return id;
}
