import type { EventDraft } from '../../core/events/index.ts';

/** The turn bookkeeping of translators that number their turns (Claude, Gemini, Qwen). */
export interface TurnState {
  turn: number;
  turnOpen: boolean;
  /** A typed error was reported for the current turn. */
  errorReported: boolean;
}

/** Opens the next turn (`turn_start`) unless one is open. */
export function startTurn(state: TurnState, out: EventDraft[]): void {
  if (state.turnOpen) return;
  state.turnOpen = true;
  state.turn++;
  state.errorReported = false;
  out.push({ type: 'turn_start', turn: state.turn });
}
