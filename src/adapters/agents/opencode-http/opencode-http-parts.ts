import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, num, type Obj, str } from '../../shared/record-fields.ts';
import { startTurn } from '../opencode/opencode-translator.ts';
import type { OpenCodeHttpTranslatorState, PartTrack } from './opencode-http-state.ts';

/**
 * A text or reasoning part (`message.part.updated`): opened at its first sight (a message or a
 * thinking block of the run's {@link StreamLedger}), what is new shown as a delta, closed once it
 * has an end time. The ledger keeps the contract's order (thinking closed before text, one message
 * open at a time); a part's track remembers only what of it was shown.
 */
export function textPart(
  id: string,
  part: Obj,
  kind: 'text' | 'reasoning',
  state: OpenCodeHttpTranslatorState,
): EventDraft[] {
  const out: EventDraft[] = [];
  let track = state.parts[id];
  if (!track) {
    out.push(...startTurn(state));
    track = { kind, messageId: str(part.messageID), shown: '', ended: false };
    state.parts[id] = track;
    if (kind === 'text') state.ledger.startMessage(out, track.messageId, state.model);
    else state.ledger.startThinking(out, track.messageId);
  }
  if (track.ended) return out;
  const text = str(part.text) ?? '';
  // A whole part (or one that grew past the deltas): show what is new.
  if (text.startsWith(track.shown) && text.length > track.shown.length) {
    showDelta(track, text.slice(track.shown.length), state, out);
    track.shown = text;
  }
  const time = isObj(part.time) ? part.time : {};
  if (num(time.end) !== undefined) closePart(track, state, out, text);
  return out;
}

/** `message.part.delta`: a piece of a known part's `text`. */
export function partDelta(props: Obj, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const id = str(props.partID);
  const delta = str(props.delta);
  const track = id ? state.parts[id] : undefined;
  if (!track || track.ended || props.field !== 'text' || !delta) return [];
  track.shown += delta;
  const out: EventDraft[] = [];
  showDelta(track, delta, state, out);
  return out;
}

function showDelta(track: PartTrack, delta: string, state: OpenCodeHttpTranslatorState, out: EventDraft[]): void {
  if (track.kind === 'text') state.ledger.text(out, delta, track.messageId);
  else state.ledger.thinking(out, delta, track.messageId);
}

/** Ends a part with its whole text (a text part's is the turn's result). */
export function closePart(
  track: PartTrack,
  state: OpenCodeHttpTranslatorState,
  out: EventDraft[],
  text: string = track.shown,
): void {
  track.ended = true;
  if (track.kind === 'reasoning') {
    state.ledger.stopThinking(out, text || null);
    return;
  }
  if (text) state.lastText = text;
  state.ledger.stopMessage(out, text || null);
}
