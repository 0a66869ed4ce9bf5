/** The line an approval comment of a dead attempt gets; `linkSupersededComment` adds to it. */
export const SUPERSEDED_PREFIX = '**Superseded**:';

/**
 * An approval comment of an attempt that recovery took over, rewritten: the headline says
 * "Superseded" instead of "Approval needed", and the instructions to reply `/approve <id>` give way to
 * one line saying why nobody can answer it any more (and where the run goes on). What the request
 * showed (tool, arguments, "Not counted") stays. A body of another shape gets the line at its end.
 */
export function supersededApprovalBody(body: string, note: string): string {
  const line = `${SUPERSEDED_PREFIX} ${note}`;
  const headline = body.replace(/^### Approval needed: /m, '### Superseded: ');
  const instructions = /^Asked on commit [^\n]*\n(?:[^\n]*\n)*?Without an answer it is denied after [^\n]*$/m;
  return instructions.test(headline) ? headline.replace(instructions, line) : `${headline}\n\n${line}`;
}

/** A superseded approval comment with a link to the request that asks again (same issue page: an anchor). */
export function linkSupersededComment(body: string, again: { approvalId: string; commentId: number }): string {
  const link = `Asked again as [\`${again.approvalId}\`](#issuecomment-${again.commentId}): answer that one.`;
  const lines = body.split('\n');
  const index = lines.findIndex((l) => l.startsWith(SUPERSEDED_PREFIX));
  if (index < 0) return `${body}\n\n${link}`;
  const kept = lines[index]!.replace(/ Asked again as .*$/, '');
  lines[index] = `${kept} ${link}`;
  return lines.join('\n');
}
