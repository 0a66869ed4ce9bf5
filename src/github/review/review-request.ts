/**
 * Whether a request on a pull request asks for a review: its first word is `review` (`@agent review`,
 * `@agent review: look at the error handling`, `@agent codex: review`). What follows is what to look at.
 */
export function reviewRequestOf(prompt: string): { focus: string } | undefined {
  const match = /^\s*review\b(?![-'])[\s:,.;!–—-]*([\s\S]*)$/i.exec(prompt);
  if (!match) return undefined;
  const focus = (match[1] ?? '').trim();
  // "review this", "review the PR", "review please": nothing to focus on.
  return {
    focus: /^(?:(?:this|the|my|our)\s+)?(?:pr|pull request|change|changes|diff|please|this)?[\s.!]*$/i.test(focus)
      ? ''
      : focus,
  };
}
