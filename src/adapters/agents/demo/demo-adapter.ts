import { randomUUID } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ADAPTER_SPECIFICATION_VERSION,
  type Adapter,
  type AgentSession,
  type SessionContext,
} from '../../../core/adapter/index.ts';
import { callToolReported } from '../../../core/tools/call-tool-reported.ts';
import type { ToolResult } from '../../../core/tools/tool-host.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import { DEMO_NOTE_FILE, renderDemoNote } from './render-demo-note.ts';

export interface DemoAdapterOptions {
  /** Pause between the scripted steps, so a terminal shows them happen. Default 250 ms. */
  stepDelayMs?: number;
}

/** The README the demo fixes when its workspace is empty (`agent-mux run --adapter demo`). */
export const DEMO_README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';

/**
 * A scripted agent that needs no key, program or network. It goes through what real agents
 * do — session, streamed text, tool calls through the run's tool host, an approval for a
 * write, a file edit and a cost report — so that a newcomer sees the whole flow. It fixes the
 * typos "projcet" and "teh" in README.md; where there are none it writes {@link DEMO_NOTE_FILE},
 * restating the request, so that a run on any repository changes something.
 */
export function demoAdapter(options: DemoAdapterOptions = {}): Adapter {
  const delay = options.stepDelayMs ?? 250;
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'demo',
    displayName: 'Demo (scripted, no key needed)',
    // A script: it reads no file as instructions.
    readsFromRepository: [],
    capabilities: cliCapabilities({
      resume: false,
      fork: false,
      thinking: 'yes',
      mcp: false,
      approvals: 'relay',
      sessionPersistence: 'none',
      streaming: 'full',
    }),
    costModel: 'demo/scripted',
    // It calls the run's tool host itself: served remotely, its tools are the caller's.
    callerTools: 'native',
    launch: { kind: 'session', open: async (ctx) => openDemoSession(ctx, delay) },
  };
}

async function openDemoSession(ctx: SessionContext, delay: number): Promise<AgentSession> {
  let stopped: string | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const step = async () => {
    await sleep(delay);
    if (stopped || ctx.signal.aborted) throw new Error(`stopped: ${stopped ?? 'aborted'}`);
  };
  let calls = 0;
  const callTool = async (toolName: string, input: Record<string, unknown>): Promise<ToolResult> => {
    const toolCallId = `demo_call_${++calls}`;
    ctx.emit({ type: 'tool_call_start', toolCallId, toolName });
    ctx.emit({ type: 'tool_input_delta', toolCallId, delta: JSON.stringify(input) });
    ctx.emit({ type: 'tool_call_ready', toolCallId, toolName, input });
    const result = await callToolReported(ctx.tools, ctx.emit, { toolCallId, toolName, input, signal: ctx.signal });
    return result;
  };
  const say = async (messageId: string, text: string) => {
    ctx.emit({ type: 'message_start', messageId, model: 'demo-1' });
    for (const word of text.match(/\S+\s*/g) ?? []) {
      ctx.emit({ type: 'text_delta', messageId, delta: word });
      await sleep(Math.min(30, delay / 5));
    }
    ctx.emit({ type: 'message_stop', messageId, text });
  };

  const sessionId = `demo_${randomUUID()}`;
  const done = (async () => {
    ctx.emit({ type: 'session_start', sessionId, model: 'demo-1', cwd: ctx.request.cwd });
    ctx.emit({ type: 'turn_start', turn: 0 });
    if ((await readdir(ctx.request.cwd).catch(() => ['?'])).length === 0) {
      await writeFile(join(ctx.request.cwd, 'README.md'), DEMO_README);
    }

    ctx.emit({ type: 'thinking_start' });
    ctx.emit({ type: 'thinking_delta', delta: 'The task asks for a fix; read it, then look at the files.' });
    ctx.emit({ type: 'thinking_stop' });
    await step();
    const task = await callTool('read_task', {});
    await step();
    ctx.emit({ type: 'progress', summary: 'Reading the workspace', attempted: [] });
    await callTool('list_files', { path: '.' });
    await step();
    const read = await callTool('read_file', { path: 'README.md' });
    const original = read.ok ? contentOf(read.value) : '';
    await step();
    const fixed = original.replace(/\bprojcet\b/g, 'project').replace(/\bteh\b/g, 'the');
    let changed: string[] = [];
    if (fixed !== original) {
      await say('demo_msg_1', 'I found a typo in README.md and will fix it.');
      const write = await callTool('write_file', { path: 'README.md', content: fixed });
      await step();
      if (write.ok) {
        changed = ['README.md'];
        ctx.emit({ type: 'progress', summary: 'Fixed the typo in README.md', attempted: ['edit README.md'] });
      } else {
        await say('demo_msg_2', `I could not write README.md: ${write.error}`);
      }
    } else {
      await say('demo_msg_1', `README.md has no typo that I know how to fix; I will write ${DEMO_NOTE_FILE} instead.`);
      const note = renderDemoNote(task.ok ? task.value : undefined, ctx.request.prompt);
      const write = await callTool('write_file', { path: DEMO_NOTE_FILE, content: note });
      await step();
      if (write.ok) {
        changed = [DEMO_NOTE_FILE];
        ctx.emit({ type: 'progress', summary: `Wrote ${DEMO_NOTE_FILE}`, attempted: [`write ${DEMO_NOTE_FILE}`] });
      } else {
        await say('demo_msg_2', `I could not write ${DEMO_NOTE_FILE}: ${write.error}`);
      }
    }
    ctx.emit({
      type: 'cost',
      model: 'demo-1',
      inputTokens: 1200,
      outputTokens: 180,
      cacheReadTokens: 400,
      usd: 0.0042,
    });
    const summary =
      changed[0] === 'README.md'
        ? 'Fixed the typo in README.md.'
        : changed[0] === DEMO_NOTE_FILE
          ? `Wrote ${DEMO_NOTE_FILE}, restating the request.`
          : 'Nothing changed.';
    await say('demo_msg_3', summary);
    ctx.emit({ type: 'turn_end', turn: 0, stopReason: 'end_turn', result: summary });
    return { status: 'completed' as const, output: { changedFiles: changed, summary }, sessionId };
  })();
  done.catch(() => undefined);

  return {
    done,
    stop: async (reason) => {
      stopped = reason;
      await done.catch(() => undefined);
    },
  };
}

function contentOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'content' in value) {
    const content = (value as { content: unknown }).content;
    if (typeof content === 'string') return content;
  }
  return '';
}
