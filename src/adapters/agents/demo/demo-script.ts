/** The demo agent's one turn, scripted: read the task and README.md, fix its typo or write a note, report. */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import type { ToolResult } from '../../../core/tools/tool-host.ts';
import type { DemoSteps } from './demo-steps.ts';
import { DEMO_NOTE_FILE, renderDemoNote } from './render-demo-note.ts';

/** The README the demo fixes when its workspace is empty (`agent-mux run --adapter demo`). */
export const DEMO_README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';

/**
 * Runs the demo's turn in session `sessionId`: session, thinking, tool calls through the run's tool
 * host, a write (approved or not), a cost report and a summary. Throws once the session is stopped.
 */
export async function runDemoScript(ctx: SessionContext, demo: DemoSteps, sessionId: string): Promise<SessionOutcome> {
  ctx.emit({ type: 'session_start', sessionId, model: 'demo-1', cwd: ctx.request.cwd });
  ctx.emit({ type: 'turn_start', turn: 0 });
  if ((await readdir(ctx.request.cwd).catch(() => ['?'])).length === 0) {
    await writeFile(join(ctx.request.cwd, 'README.md'), DEMO_README);
  }

  ctx.emit({ type: 'thinking_start' });
  ctx.emit({ type: 'thinking_delta', delta: 'The task asks for a fix; read it, then look at the files.' });
  ctx.emit({ type: 'thinking_stop' });
  await demo.step();
  const task = await demo.callTool('read_task', {});
  await demo.step();
  ctx.emit({ type: 'progress', summary: 'Reading the workspace', attempted: [] });
  await demo.callTool('list_files', { path: '.' });
  await demo.step();
  const read = await demo.callTool('read_file', { path: 'README.md' });
  const original = read.ok ? contentOf(read.value) : '';
  await demo.step();
  const changed = await fixReadmeOrWriteNote(ctx, demo, original, task);
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
  await demo.say('demo_msg_3', summary);
  ctx.emit({ type: 'turn_end', turn: 0, stopReason: 'end_turn', result: summary });
  return { status: 'completed', output: { changedFiles: changed, summary }, sessionId };
}

/**
 * Fixes the typos "projcet" and "teh" in README.md (`original`); where there are none, writes
 * {@link DEMO_NOTE_FILE}, restating the request (`task`, what `read_task` returned). The files changed.
 */
async function fixReadmeOrWriteNote(
  ctx: SessionContext,
  demo: DemoSteps,
  original: string,
  task: ToolResult,
): Promise<string[]> {
  const fixed = original.replace(/\bprojcet\b/g, 'project').replace(/\bteh\b/g, 'the');
  if (fixed !== original) {
    await demo.say('demo_msg_1', 'I found a typo in README.md and will fix it.');
    return await writeReported(ctx, demo, 'README.md', fixed, {
      summary: 'Fixed the typo in README.md',
      attempted: ['edit README.md'],
    });
  }
  await demo.say('demo_msg_1', `README.md has no typo that I know how to fix; I will write ${DEMO_NOTE_FILE} instead.`);
  const note = renderDemoNote(task.ok ? task.value : undefined, ctx.request.prompt);
  return await writeReported(ctx, demo, DEMO_NOTE_FILE, note, {
    summary: `Wrote ${DEMO_NOTE_FILE}`,
    attempted: [`write ${DEMO_NOTE_FILE}`],
  });
}

/** Writes `path` through the tool host: `[path]` and the `progress` step when it did, else `[]` and says why not. */
async function writeReported(
  ctx: SessionContext,
  demo: DemoSteps,
  path: string,
  content: string,
  progress: { summary: string; attempted: string[] },
): Promise<string[]> {
  const write = await demo.callTool('write_file', { path, content });
  await demo.step();
  if (!write.ok) {
    await demo.say('demo_msg_2', `I could not write ${path}: ${write.error}`);
    return [];
  }
  ctx.emit({ type: 'progress', ...progress });
  return [path];
}

/** The text of what `read_file` returned: the string itself, or its `content`. */
function contentOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'content' in value) {
    const content = (value as { content: unknown }).content;
    if (typeof content === 'string') return content;
  }
  return '';
}
