import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';

/** The longest text kept for `message_stop.text`; beyond it the stop event carries no text. */
export const MAX_MESSAGE_TEXT_CHARS = 16 * 1024 * 1024;

export interface TextOutputState extends TranslatorState {
  /** A `message_start` has been emitted and no `message_stop` yet. */
  open: boolean;
  parts: string[];
  chars: number;
  /** The text grew past `MAX_MESSAGE_TEXT_CHARS`: `message_stop` goes without it. */
  overflow: boolean;
}

/** Turns one line of a program's stdout into drafts: `message_start` before the first, then `text_delta` (newline kept). */
export function textLineDrafts(line: string, state: TextOutputState): EventDraft[] {
  return textDeltaDrafts(`${line}\n`, state);
}

/** One piece of text of the message: `message_start` before the first, then a `text_delta`; the text is kept. */
export function textDeltaDrafts(delta: string, state: TextOutputState): EventDraft[] {
  const out: EventDraft[] = [];
  if (!state.open) {
    state.open = true;
    out.push({ type: 'message_start' });
  }
  out.push({ type: 'text_delta', delta });
  if (!state.overflow) {
    state.chars += delta.length;
    if (state.chars > MAX_MESSAGE_TEXT_CHARS) {
      state.overflow = true;
      state.parts = [];
    } else {
      state.parts.push(delta);
    }
  }
  return out;
}

/** Closes the message, if one is open, with its whole text. Resets the state for a next message. */
export function closeTextMessage(state: TextOutputState): EventDraft[] {
  if (!state.open) return [];
  const text = state.overflow ? undefined : state.parts.join('');
  state.open = false;
  state.parts = [];
  state.chars = 0;
  state.overflow = false;
  return [text === undefined ? { type: 'message_stop' } : { type: 'message_stop', text }];
}

export function initTextOutputState(debug: boolean): TextOutputState {
  return { debug, open: false, parts: [], chars: 0, overflow: false };
}

/**
 * The translator of plain-text programs (generic-cli, generic-job): every stdout line is text of one
 * assistant message, opened at the first line and closed when the program exits; stderr lines are logs
 * (the core's default). Blank lines are not seen (the line decoder skips them).
 */
export const textOutputTranslator: Translator<TextOutputState> = {
  init: ({ debug }) => initTextOutputState(debug),
  translate: (record: NativeRecord, state) =>
    textLineDrafts(record.kind === 'text' ? record.line : JSON.stringify(record.value), state),
  finish: (_exit, state) => closeTextMessage(state),
};
