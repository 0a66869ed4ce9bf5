import { existsSync, readFileSync } from 'node:fs';
import type { AgentEvent } from '../../src/core/events/index.ts';
import { replayStream } from '../../src/core/run/replay-stream.ts';
import type { LiveCaseName, LiveSpec } from './live-spec.ts';
import { normalizeEvents } from './normalize-events.ts';

export const streamsDir = new URL('../fixtures/streams/', import.meta.url);

export interface RecordingMeta {
  adapter: string;
  npmPackage: string;
  version: string;
  versionOutput: string;
  case: LiveCaseName;
  commandLine: string[];
  exitCode: number | null;
  signal: string | null;
  endReason: string;
  stderrTail: string;
  paths: { workspace: string; home: string; server: string };
  /** The request of the recorded turn (prompt, resumed session), replayed with the stream. */
  request: { prompt: string; resumeSessionId?: string };
  modelRequests: { method: string; path: string; reply: string }[];
  recordedAt: string;
}

export const recordingFile = (adapter: string, caseName: string, ext: 'jsonl' | 'meta.json' | 'golden.json') =>
  new URL(`${adapter}/${caseName}.${ext}`, streamsDir);

/**
 * The exit code a recording is replayed with: an ACP agent does not exit after its prompt response,
 * so the core stops it (no exit code) after a completed run; that is a clean end. Otherwise 1.
 */
export function replayExitCode(exitCode: number | null, endReason: string): number | null {
  return exitCode === null && endReason === 'completed' ? 0 : exitCode;
}

/** The normalized events a native stream translates to, as the golden files hold them. */
export async function translateRecording(
  spec: LiveSpec,
  stdout: Buffer,
  exitCode: number | null,
  paths: Record<string, string>,
  request?: RecordingMeta['request'],
): Promise<unknown[]> {
  const events: AgentEvent[] = [];
  // The recorded run's workspace as cwd: events that carry it normalize to <workspace> anywhere.
  const replayRequest = { cwd: paths.workspace ?? '/workspace', ...request };
  await replayStream(spec.create(), [stdout], (event) => events.push(event), {
    exitCode: exitCode ?? 1,
    request: replayRequest,
  });
  return normalizeEvents(events, paths);
}

/** The recorded cases of a spec that exist on disk. */
export function recordedCases(
  spec: LiveSpec,
): { name: LiveCaseName; stdout: Buffer; meta: RecordingMeta; golden: unknown[] }[] {
  const out = [];
  for (const name of Object.keys(spec.cases) as LiveCaseName[]) {
    const file = recordingFile(spec.adapter, name, 'jsonl');
    if (!existsSync(file)) continue;
    out.push({
      name,
      stdout: readFileSync(file),
      meta: JSON.parse(readFileSync(recordingFile(spec.adapter, name, 'meta.json'), 'utf8')) as RecordingMeta,
      golden: JSON.parse(readFileSync(recordingFile(spec.adapter, name, 'golden.json'), 'utf8')) as unknown[],
    });
  }
  return out;
}
