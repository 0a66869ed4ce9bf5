import type { AgentEvent } from '../../core/events/index.ts';

/** Keeps the agent's last message of a run (its whole text, or its streamed deltas), for the turn record. */
export function createFinalMessage(maxChars = 4000): {
  onEvent(event: AgentEvent): void;
  readonly text: string | undefined;
} {
  let current = '';
  let last: string | undefined;
  return {
    onEvent(event) {
      if (event.type === 'message_start') current = '';
      else if (event.type === 'text_delta') current = (current + event.delta).slice(-maxChars * 2);
      else if (event.type === 'message_stop') {
        const text = (event.text ?? current).trim();
        if (text) last = text;
        current = '';
      } else if (event.type === 'turn_end' && event.result?.trim()) last = event.result.trim();
    },
    get text() {
      const text = last ?? (current.trim() || undefined);
      return text === undefined ? undefined : text.slice(-maxChars);
    },
  };
}
