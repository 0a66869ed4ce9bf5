/**
 * Whether a person's reply in a finding's thread dismisses it: "won't fix", "intended", "by
 * design", "false positive", "not a bug", "ignore this" and the like, said at the start of a line
 * or as the whole reply. A dismissed finding is not raised again on later pushes; anything else a
 * person writes there is given to the agent on the next review.
 */
export function isDismissal(reply: string): boolean {
  const text = reply
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^>.*$/gm, '')
    .trim()
    .toLowerCase()
    .replace(/[’`]/g, "'");
  if (text === '') return false;
  return DISMISSALS.some((pattern) => pattern.test(text));
}

/** A reaction that dismisses a finding when a person puts it on the finding's comment. */
export const DISMISSING_REACTION = '-1';

const DISMISSALS: readonly RegExp[] = [
  /^(?:this is |that's |it's |it is )?(?:intended|intentional|deliberate|on purpose)\b/m,
  /^(?:this is |that's |it's |it is )?(?:by design|as designed|working as intended|expected behaviou?r)\b/m,
  /^(?:won'?t|will not|wont) fix\b/m,
  /^wontfix\b/m,
  /^(?:this is |that's |it's |it is )?(?:a )?(?:false positive|not a bug|not an issue|not a problem)\b/m,
  /^(?:please )?(?:ignore|dismiss)(?: this| it)?\b/m,
];
