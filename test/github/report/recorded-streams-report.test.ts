import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { openCodeHttpTranslator } from '../../../src/adapters/agents/opencode-http/opencode-http-translator.ts';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import { acpAdapter } from '../../../src/adapters/protocols/acp/index.ts';
import { genericCliAdapter } from '../../../src/adapters/protocols/generic-cli/generic-cli-adapter.ts';
import { genericJobAdapter } from '../../../src/adapters/protocols/generic-job/generic-job-adapter.ts';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../../../src/core/adapter/index.ts';
import { genericCliAdapterConfigSchema, genericJobAdapterConfigSchema } from '../../../src/core/config/index.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { replayStream } from '../../../src/core/run/replay-stream.ts';
import { renderCheckRunOutput } from '../../../src/github/report/render-check-run.ts';
import { renderTrackingComment } from '../../../src/github/report/render-tracking-comment.ts';
import { RunProgress } from '../../../src/github/report/run-progress.ts';
import { loadSpecs } from '../../live/load-specs.ts';
import { type RecordingMeta, replayExitCode } from '../../live/recordings.ts';
import { T0 } from './scenarios.ts';

// Every recorded stream of every adapter (found in the fixtures folder, so a new recording is
// covered without touching this file), replayed through its translator and `RunProgress`: the
// reports must show each of the agent's messages once.
const streamsDir = new URL('../../fixtures/streams/', import.meta.url);
const builtins = createBuiltinRegistry();
/** The live specs map a recorded folder to its adapter (ACP folders `acp-<agent>`), as the golden test replays them. */
const specs = new Map((await loadSpecs()).map((spec) => [spec.adapter, spec]));

/** Adapters whose fixture folder is not a built-in adapter's id (configured adapter types). */
const configured: Record<string, () => Adapter> = {
  process: () => processAdapter('process', { binary: 'unused' }),
  'generic-cli': () =>
    genericCliAdapter('generic-cli', genericCliAdapterConfigSchema.parse({ type: 'generic-cli', command: 'unused' })),
  'generic-job': () =>
    genericJobAdapter('generic-job', genericJobAdapterConfigSchema.parse({ type: 'generic-job', command: 'unused' })),
  // The ACP fixture agent's streams (test/fixtures/bin/acp-agent.mjs, as test/adapters/acp/acp-run.test.ts runs it).
  'acp-fixture': () => acpAdapter('acp-fixture', { binary: 'unused' }),
};

const adapterFor = (folder: string): Adapter =>
  configured[folder]?.() ?? specs.get(folder)?.create() ?? builtins.get(folder);

const STREAM_FILE = /\.(jsonl|sse|txt)$/;
const recordings = readdirSync(streamsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(new URL(`${dir.name}/`, streamsDir))
      .filter((file) => STREAM_FILE.test(file))
      .map((file) => ({ adapter: dir.name, file })),
  )
  .sort((a, b) => `${a.adapter}/${a.file}`.localeCompare(`${b.adapter}/${b.file}`));

/** A session adapter's recorded SSE stream, through its translator as the session feeds it. */
function replaySse(adapter: Adapter, text: string, runId: string): AgentEvent[] {
  const translator = sseTranslators[adapter.id];
  if (!translator) throw new Error(`no SSE translator known for ${adapter.id}`);
  return translator(text, adapter.id, runId);
}

const sseTranslators: Record<string, (text: string, agent: string, runId: string) => AgentEvent[]> = {
  'opencode-http': (text, agent, runId) => {
    const state = openCodeHttpTranslator.init({ debug: false, request: { prompt: '', cwd: '/workspace' } });
    const events: AgentEvent[] = [];
    let at = T0;
    const parser = createParser({
      onEvent: (message) => {
        for (const draft of openCodeHttpTranslator.translate(
          { kind: 'json', value: JSON.parse(message.data) },
          state,
        )) {
          at += 10;
          events.push({ ...draft, runId, agent, timestamp: at } as AgentEvent);
        }
      },
    });
    parser.feed(text);
    return events;
  },
};

async function replay(adapter: string, file: string): Promise<AgentEvent[]> {
  const agent = adapterFor(adapter);
  const text = readFileSync(new URL(`${adapter}/${file}`, streamsDir));
  const runId = `replay-${adapter}`;
  if (file.endsWith('.sse')) return replaySse(agent, text.toString('utf8'), runId);
  // A live recording is replayed with its recorded request and exit (a resumed ACP session's
  // `session/load` replays its history first, which only the request's session id marks as history).
  const metaFile = new URL(`${adapter}/${file.replace(STREAM_FILE, '.meta.json')}`, streamsDir);
  const meta = existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, 'utf8')) as RecordingMeta) : undefined;
  const events: AgentEvent[] = [];
  await replayStream(agent, [text], (event) => events.push(event), {
    runId,
    ...(file.endsWith('.txt') ? { protocol: 'text' as const } : {}),
    ...(meta
      ? {
          exitCode: replayExitCode(meta.exitCode, meta.endReason) ?? 1,
          request: { cwd: meta.paths.workspace, ...meta.request },
        }
      : {}),
  });
  return events;
}

/** The agent's message lines of the log, without their `[mm:ss] ` clock. */
function messageLines(progress: RunProgress): string[] {
  return progress.log.lines
    .map((line) => line.replace(/^\[[^\]]*\] /, ''))
    .filter((line) => line.startsWith('agent: '));
}

describe('reports of every recorded stream', () => {
  it('finds the recordings of every adapter folder', () => {
    expect(recordings.length).toBeGreaterThan(50);
    for (const { adapter } of recordings) expect(() => adapterFor(adapter), adapter).not.toThrow();
  });

  for (const { adapter, file } of recordings) {
    it(`${adapter}/${file}: no message is logged twice`, async () => {
      const events = await replay(adapter, file);
      const progress = new RunProgress({ agent: adapter });
      for (const event of events) progress.apply(event);
      progress.close(true);

      const lines = messageLines(progress);
      const repeated = lines.filter((line, i) => lines.indexOf(line) !== i);
      expect(repeated, `${adapter}/${file} logged a message twice`).toEqual([]);

      // Every message the agent finished with text is in the log.
      for (const event of events) {
        if (event.type !== 'message_stop' || !event.text?.trim()) continue;
        // Log lines are one line each: compare with whitespace runs collapsed.
        const head = event.text.trim().replace(/\s+/g, ' ').slice(0, 40);
        expect(
          lines.some((line) => line.includes(head)),
          `${adapter}/${file}: "${head}" missing`,
        ).toBe(true);
      }

      // The rendered check run shows each message line once.
      const output = renderCheckRunOutput(progress, { finished: { conclusion: 'success' } });
      for (const line of new Set(lines))
        expect((output.text ?? '').split(line).length - 1, line).toBeLessThanOrEqual(1);
      const comment = renderTrackingComment(progress, { runId: 'run-1', finished: { conclusion: 'success' } });
      for (const line of new Set(lines)) expect(comment.split(line).length - 1, line).toBeLessThanOrEqual(1);
    });
  }
});
