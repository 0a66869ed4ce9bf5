/**
 * What a webhook is about, as a key that stays the same when the same event is delivered again
 * under a new delivery id (GitHub's redelivery, or a captured signed payload re-sent): the comment
 * and its action, the review, the issue and the change made to it. The store records the first
 * delivery per key; a later one is a duplicate and starts or answers nothing.
 *
 * Undefined for events that are safe to repeat: `pull_request.synchronize` only voids pending
 * approvals (and a head may come back to an earlier commit, so its key would not be unique).
 */
export function webhookSubjectKey(name: string, payload: unknown): string | undefined {
  const body = record(payload);
  const action = text(body.action);
  if (action === undefined) return undefined;
  switch (name) {
    case 'issue_comment':
      return keyOf('issue_comment', id(record(body.comment).id), action);
    case 'pull_request_review_comment':
      return keyOf('review_comment', id(record(body.comment).id), action);
    case 'pull_request_review':
      return keyOf('review', id(record(body.review).id), action);
    case 'issues': {
      const issue = record(body.issue);
      const issueId = id(issue.id);
      if (action === 'opened') return keyOf('issue', issueId, action);
      // A label or an assignee may be taken off and given again: each giving is a new change of the
      // issue, whose `updated_at` a re-sent payload keeps.
      const what =
        action === 'labeled'
          ? text(record(body.label).name)
          : action === 'assigned'
            ? text(record(body.assignee).login)
            : undefined;
      const at = text(issue.updated_at);
      return what === undefined || at === undefined ? undefined : keyOf('issue', issueId, action, what, at);
    }
    case 'check_run': {
      const identifier = text(record(body.requested_action).identifier);
      const senderRecord = record(body.sender);
      const senderId = id(senderRecord.id);
      const login = text(senderRecord.login);
      const sender = senderId === undefined || login === undefined ? undefined : `${senderId}:${login.toLowerCase()}`;
      return identifier === undefined || sender === undefined
        ? undefined
        : keyOf('check_run', id(record(body.check_run).id), action, identifier, sender);
    }
    default:
      return undefined;
  }
}

function keyOf(kind: string, subjectId: string | undefined, ...parts: string[]): string | undefined {
  return subjectId === undefined ? undefined : [kind, subjectId, ...parts].join(':');
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function id(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
}
