import { z } from 'zod';
import { SEVERITIES } from './finding.ts';
import type { ReviewedFinding } from './review-state.ts';

/**
 * What a finding's own comment on GitHub remembers of it, in its hidden marker (base64url JSON):
 * where it was posted and the code it is anchored to. A later review reads its earlier findings
 * back from GitHub (the threads, who replied and who resolved them), so the state lives where
 * people act on it, for the Action and the app alike, and no cache eviction loses it.
 */
/** Anchors longer than this are cut: enough to tell code apart, small enough for a comment. */
const MAX_ANCHOR = 2000;

const markedSchema = z.object({
  p: z.string().min(1).max(1000),
  l: z.number().int().min(1),
  s: z.number().int().min(1).optional(),
  a: z.string().max(MAX_ANCHOR),
  v: z.enum(SEVERITIES),
  t: z.string().max(300),
  o: z.string().max(64),
});

export type MarkedFinding = Pick<
  ReviewedFinding,
  'path' | 'line' | 'startLine' | 'anchor' | 'severity' | 'title' | 'postedOn'
>;

export function encodeFinding(finding: MarkedFinding): string {
  const value: z.input<typeof markedSchema> = {
    p: finding.path,
    l: finding.line,
    ...(finding.startLine === undefined ? {} : { s: finding.startLine }),
    a: finding.anchor.slice(0, MAX_ANCHOR),
    v: finding.severity,
    t: finding.title.slice(0, 300),
    o: finding.postedOn.slice(0, 64),
  };
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The finding a marker holds, or undefined when it holds none that agent-mux wrote. */
export function decodeFinding(encoded: string): MarkedFinding | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = markedSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { p, l, s, a, v, t, o } = parsed.data;
  return {
    path: p,
    line: l,
    ...(s === undefined ? {} : { startLine: s }),
    anchor: a,
    severity: v,
    title: t,
    postedOn: o,
  };
}
