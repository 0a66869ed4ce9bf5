import { geminiAcpAdapter } from '../../../src/adapters/agents/gemini/gemini-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as gemini } from './gemini.live.ts';

/** Waits for the next minute of the clock (see `setup`). */
const nextMinute = () => new Promise((resolve) => setTimeout(resolve, 61_000 - (Date.now() % 60_000)));

/**
 * Gemini CLI 0.61.0 in ACP mode (`gemini --acp --approval-mode default`), against the fake model
 * server with the same settings as the stream-json spec. Recordings: test/fixtures/streams/acp-gemini/.
 */
export const spec: LiveSpec = {
  ...gemini,
  adapter: 'acp-gemini',
  create: () => geminiAcpAdapter(),
  timeoutMs: 180_000,
  cases: acpWriteCases(gemini.cases),
  async setup(ctx) {
    // The second turn of `resume`: Gemini 0.61.0's `session/load` starts a chat recording under the
    // same session id before it reads the session; its file is named by the minute
    // (`session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`), so within the first turn's minute it appends an
    // empty history to the first turn's file and then finds "No previous sessions". A follow-up a
    // minute later (any real one) reads the first file intact.
    if (ctx.case === 'resume') await nextMinute();
    return gemini.setup(ctx);
  },
};
