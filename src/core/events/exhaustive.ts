/**
 * Marks the end of a switch over every event `type` (or any other union): called in its `default`,
 * it compiles only when each member has its case, so a new event type fails to compile wherever it
 * is not handled instead of vanishing there. It does nothing at run time.
 */
export function exhaustive(_value: never): void {}
