import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, num, type Obj, str } from '../../shared/record-fields.ts';
import { startTurn } from '../opencode/opencode-translator.ts';
import type { OpenCodeHttpTranslatorState, PartTrack } from './opencode-http-state.ts';

/**
 * A text or reasoning part (`message.part.updated`): opened at its first sight (`message_start` /
 * `thinking_start`), what is new shown as a delta, closed once it has an end time.
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
    out.push(
      kind === 'text'
        ? { type: 'message_start', messageId: track.messageId, model: state.model }
        : { type: 'thinking_start', messageId: track.messageId },
    );
  }
  if (track.ended) return out;
  const text = str(part.text) ?? '';
  // A whole part (or one that grew past the deltas): show what is new.
  if (text.startsWith(track.shown) && text.length > track.shown.length) {
    out.push(deltaDraft(track, text.slice(track.shown.length)));
    track.shown = text;
  }
  const time = isObj(part.time) ? part.time : {};
  if (num(time.end) !== undefined) out.push(closePart(track, text, state));
  return out;
}

/** `message.part.delta`: a piece of a known part's `text`. */
export function partDelta(props: Obj, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const id = str(props.partID);
  const delta = str(props.delta);
  const track = id ? state.parts[id] : undefined;
  if (!track || track.ended || props.field !== 'text' || !delta) return [];
  track.shown += delta;
  return [deltaDraft(track, delta)];
}

function deltaDraft(track: PartTrack, delta: string): EventDraft {
  return track.kind === 'text'
    ? { type: 'text_delta', delta, messageId: track.messageId }
    : { type: 'thinking_delta', delta, messageId: track.messageId };
}

/** Ends a part: `message_stop` / `thinking_stop` with its whole text (a text part's is the turn's result). */
export function closePart(track: PartTrack, text?: string, state?: OpenCodeHttpTranslatorState): EventDraft {
  track.ended = true;
  const whole = text ?? track.shown;
  if (track.kind === 'reasoning')
    return { type: 'thinking_stop', messageId: track.messageId, thinking: whole || undefined };
  if (state && whole) state.lastText = whole;
  return { type: 'message_stop', messageId: track.messageId, text: whole || undefined };
}
