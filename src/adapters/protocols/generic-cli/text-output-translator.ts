import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';

/** The longest text kept for `message_stop.text`; beyond it the stop event carries no text. */
export const MAX_MESSAGE_TEXT_CHARS = 16 * 1024 * 1024;

export interface TextOutputState extends TranslatorState {
  /** The one message: open from the first text to its close, its text kept up to `MAX_MESSAGE_TEXT_CHARS`. */
  ledger: StreamLedger;
}

/** Turns one line of a program's stdout into drafts: `message_start` before the first, then `text_delta` (newline kept). */
export function textLineDrafts(line: string, state: TextOutputState): EventDraft[] {
  return textDeltaDrafts(`${line}\n`, state);
}

/** One piece of text of the message: `message_start` before the first, then a `text_delta`; the text is kept. */
export function textDeltaDrafts(delta: string, state: TextOutputState): EventDraft[] {
  const out: EventDraft[] = [];
  state.ledger.text(out, delta);
  return out;
}

/** Closes the message, if one is open, with its whole text (none once it outgrew the limit). A next text opens another. */
export function closeTextMessage(state: TextOutputState): EventDraft[] {
  const out: EventDraft[] = [];
  state.ledger.stopMessage(out);
  return out;
}

/** A fresh state; `clock`: the run's clock (`TranslatorInit.clock`). */
export function initTextOutputState(debug: boolean, clock: () => number = Date.now): TextOutputState {
  return {
    debug,
    // Empty deltas pass as they come: the callers drop what they do not want shown.
    ledger: new StreamLedger(clock, { emptyDeltas: true, maxTextChars: MAX_MESSAGE_TEXT_CHARS }),
  };
}

/**
 * The translator of plain-text programs (generic-cli, generic-job): every stdout line is text of one
 * assistant message, opened at the first line and closed when the program exits; stderr lines are logs
 * (the core's default). Blank lines are not seen (the line decoder skips them).
 */
export const textOutputTranslator: Translator<TextOutputState> = {
  init: ({ debug, clock }) => initTextOutputState(debug, clock),
  translate: (record: NativeRecord, state) =>
    textLineDrafts(record.kind === 'text' ? record.line : JSON.stringify(record.value), state),
  finish: (_exit, state) => closeTextMessage(state),
};
