import { describe, expect, it } from 'vitest';
import { piRpcController, piRpcOpening, piSteerCommand } from '../../../../src/adapters/agents/pi/pi-rpc.ts';
import { type PiTranslatorState, piTranslator } from '../../../../src/adapters/agents/pi/pi-translator.ts';
import type { LaunchContext, RunIO, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const json = (value: unknown) => ({ kind: 'json', value }) as const;
const fresh = (request?: RunRequest) => piTranslator.init({ debug: false, request });
const feed = (records: unknown[], state: PiTranslatorState): EventDraft[] =>
  records.flatMap((r) => piTranslator.translate(json(r), state));

// Shapes as pi 0.73.1 prints them in `--mode rpc` (recorded: test/fixtures/streams/pi/*.jsonl).
const stateResponse = (sessionId: string) => ({
  id: 'agent-mux-session',
  type: 'response',
  command: 'get_session_stats',
  success: true,
  data: { sessionId, sessionFile: `/h/.pi/agent/sessions/x/2026_${sessionId}.jsonl`, isStreaming: false },
});
const idle = (data: Record<string, unknown> = {}) => ({
  id: 'agent-mux-idle',
  type: 'response',
  command: 'get_session_stats',
  success: true,
  data: { isStreaming: false, isCompacting: false, ...data },
});
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], timestamp: 1 });

const launch = (files: { name: string; path: string }[]) =>
  ({ request: { prompt: 'p', cwd: '/ws', files } }) as unknown as LaunchContext;

describe('pi RPC mode', () => {
  it('opens with get_session_stats then the prompt, and gives messages mid-run as prompts that steer', () => {
    const lines = piRpcOpening('fix it\nplease').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { id: 'agent-mux-session', type: 'get_session_stats' },
      { id: 'agent-mux-prompt', type: 'prompt', message: 'fix it\nplease' },
    ]);
    expect(piSteerCommand('and Windows')).toEqual({
      type: 'prompt',
      message: 'and Windows',
      streamingBehavior: 'steer',
    });
  });

  it('takes the session from the get_session_stats response, as JSON mode’s header, and a resumed one as resumed', () => {
    const state = fresh({ prompt: 'p', cwd: '/ws' });
    expect(feed([stateResponse('s-1')], state)).toEqual([{ type: 'session_start', sessionId: 's-1', cwd: '/ws' }]);
    expect(state.sessionId).toBe('s-1');
    const resumed = fresh({ prompt: 'p', cwd: '/ws', resumeSessionId: 's-1' });
    expect(feed([stateResponse('s-1')], resumed)).toEqual([{ type: 'session_resume', sessionId: 's-1' }]);
    const forked = fresh({ prompt: 'p', cwd: '/ws', resumeSessionId: 's-1', fork: true });
    expect(feed([stateResponse('s-2')], forked)).toEqual([
      { type: 'session_fork', sessionId: 's-2', forkedFrom: 's-1' },
    ]);
  });

  it('lists the user messages pi took (the prompt, a message mid-run) for the core to match', () => {
    const state = fresh();
    expect(feed([{ type: 'message_end', message: user('the prompt') }], state)).toEqual([]);
    feed(
      [
        { type: 'message_start', message: user('and Windows') },
        { type: 'message_end', message: user('and Windows') },
      ],
      state,
    );
    expect(state.takenInputs).toEqual(['the prompt', 'and Windows']);
  });

  it('agent_end asks whether pi is idle; the answer ends the run when nothing was announced since', () => {
    const state = fresh();
    feed([{ type: 'agent_start' }, { type: 'turn_start' }, { type: 'agent_end', messages: [] }], state);
    expect(state.terminal).toBeFalsy();
    feed([idle({ isStreaming: false })], state);
    expect(state.terminal).toBe(true);
    expect(state.outcome).toEqual({ status: 'completed', output: undefined });
    // An answer that finds pi streaming (it took a prompt in between) does not end the run.
    const busy = fresh();
    feed([{ type: 'agent_end', messages: [] }, idle({ isStreaming: true })], busy);
    expect(busy.terminal).toBeFalsy();
  });

  it('a retry or compaction pi announces after agent_end is not the end: auto_retry_end or compaction_end is', () => {
    const fail = (errorMessage: string) => ({
      type: 'message_end',
      message: { role: 'assistant', content: [], stopReason: 'error', errorMessage },
    });
    const rate = fresh();
    // As pi 0.73.1 prints it (test/fixtures/streams/pi/rate-429.jsonl), with the probe's answers.
    feed(
      [fail('429 rate limited'), { type: 'agent_end', messages: [] }, { type: 'auto_retry_start', attempt: 1 }],
      rate,
    );
    feed([idle(), { type: 'agent_start' }, { type: 'turn_start' }, fail('429 again')], rate);
    feed([{ type: 'agent_end', messages: [] }], rate);
    expect(rate.terminal).toBeFalsy();
    feed([{ type: 'auto_retry_end', success: false, finalError: '429 again' }], rate);
    expect(rate).toMatchObject({ terminal: true, outcome: { status: 'failed', message: '429 again' } });

    const overflow = fresh();
    feed(
      [fail('prompt is too long'), { type: 'agent_end', messages: [] }, { type: 'compaction_start' }, idle()],
      overflow,
    );
    feed([{ type: 'compaction_end', willRetry: true }], overflow);
    expect(overflow.terminal).toBeFalsy();
    feed([{ type: 'agent_start' }, fail('prompt is too long'), { type: 'agent_end', messages: [] }], overflow);
    feed([{ type: 'compaction_end', willRetry: false }], overflow);
    expect(overflow.terminal).toBe(true);

    // omp retries inside the request: its agent_end after a 429 is the last (omp rate-429 recording).
    const omp = fresh();
    feed([fail('429 rate limited'), { type: 'agent_end', messages: [] }, idle()], omp);
    expect(omp).toMatchObject({ terminal: true, outcome: { status: 'failed' } });
  });

  it('a refused prompt fails the run at once; a refused message mid-run is a recoverable error', () => {
    const state = fresh();
    const refused = { id: 'agent-mux-prompt', type: 'response', command: 'prompt', success: false, error: 'No model' };
    expect(feed([refused], state)).toEqual([
      { type: 'error', code: 'agent_error', message: 'No model', recoverable: false },
    ]);
    expect(state).toMatchObject({ terminal: true, outcome: { status: 'failed', message: 'No model' } });
    const steer = { type: 'response', command: 'prompt', success: false, error: 'busy' };
    expect(feed([steer], fresh())).toEqual([
      { type: 'error', code: 'agent_error', message: 'pi refused a message given mid-run: busy', recoverable: true },
    ]);
  });

  it('accepted commands, queue updates and extension UI requests carry nothing for the stream', () => {
    const state = fresh();
    const drafts = feed(
      [
        { id: 'agent-mux-prompt', type: 'response', command: 'prompt', success: true },
        { type: 'queue_update', steering: ['x'], followUp: [] },
        { type: 'extension_ui_request', id: 'u1', method: 'notify', message: 'hi' },
      ],
      state,
    );
    expect(drafts).toEqual([]);
  });

  it('answers an extension’s dialog `cancelled` (nobody sits at a headless run); notifications need no answer', async () => {
    const written: unknown[] = [];
    const io = { writeLine: async (line: unknown) => void written.push(line) } as unknown as RunIO;
    const controller = piRpcController(io, launch([]));
    controller.onRecord?.(json({ type: 'extension_ui_request', id: 'u1', method: 'confirm', title: 'Sure?' }));
    controller.onRecord?.(json({ type: 'extension_ui_request', id: 'u2', method: 'notify', message: 'hi' }));
    controller.onRecord?.(json({ type: 'extension_ui_request', method: 'select' }));
    controller.onRecord?.({ kind: 'text', line: 'extension_ui_request' });
    controller.onRecord?.(json({ type: 'agent_end', messages: [] }));
    expect(written).toEqual([
      { type: 'extension_ui_response', id: 'u1', cancelled: true },
      { id: 'agent-mux-idle', type: 'get_session_stats' },
    ]);
    // Print mode (files attached): stdin is closed, nothing is written.
    const print = piRpcController(io, launch([{ name: 'a.png', path: '/tmp/a.png' }]));
    expect(print.onRecord).toBeUndefined();
  });
});
