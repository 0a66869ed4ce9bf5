// npm run record [-- <adapter> …] — installs each CLI into the cache, runs every live case against
// the fake model server, and writes test/fixtures/streams/<adapter>/<case>.{jsonl,meta.json,golden.json}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { execa } from 'execa';
import { installCli } from './cli-cache.ts';
import type { LiveCaseName } from './live-spec.ts';
import { loadSpecs } from './load-specs.ts';
import {
  type RecordingMeta,
  recordedCases,
  recordingFile,
  replayExitCode,
  streamsDir,
  translateRecording,
} from './recordings.ts';
import { runLiveCase } from './run-live-case.ts';

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const caseFilter = process.argv.find((a) => a.startsWith('--case='))?.slice('--case='.length);
// --golden-only: recompute the golden events of the existing recordings (after a translator change).
const goldenOnly = process.argv.includes('--golden-only');
const specs = await loadSpecs(only);
if (specs.length === 0) {
  console.error(`no live specs${only.length ? ` for ${only.join(', ')}` : ''} in test/live/specs/`);
  process.exit(2);
}
let failures = 0;
if (goldenOnly) {
  for (const spec of specs) {
    for (const recorded of recordedCases(spec)) {
      if (caseFilter && recorded.name !== caseFilter) continue;
      const { meta } = recorded;
      const exitCode = replayExitCode(meta.exitCode, meta.endReason);
      const golden = await translateRecording(spec, recorded.stdout, exitCode, meta.paths, meta.request);
      writeFileSync(recordingFile(spec.adapter, recorded.name, 'golden.json'), `${JSON.stringify(golden, null, 2)}\n`);
      console.log(`[${spec.adapter}] ${recorded.name}: golden recomputed, ${golden.length} events`);
    }
  }
  process.exit(0);
}
for (const spec of specs) {
  if (Object.values(spec.cases).every((c) => 'skip' in c)) {
    console.log(`[${spec.adapter}] every case is skipped (evidence-only): nothing to install or record`);
    continue;
  }
  let bin: string;
  try {
    bin = await installCli(spec, (line) => console.log(`[${spec.adapter}] ${line}`));
  } catch (error) {
    console.error(`[${spec.adapter}] ${(error as Error).message}`);
    failures++;
    continue;
  }
  // Some CLIs print their version on stderr.
  const version = await execa(bin, ['--version'], { reject: false, timeout: 30_000, all: true });
  const versionOutput = String(version.all ?? '').trim();
  mkdirSync(new URL(`${spec.adapter}/`, streamsDir), { recursive: true });
  for (const [name, value] of Object.entries(spec.cases) as [LiveCaseName, object][]) {
    if (caseFilter && name !== caseFilter) continue;
    if ('skip' in value) {
      console.log(`[${spec.adapter}] ${name}: skipped (${(value as { skip: string }).skip})`);
      continue;
    }
    const started = Date.now();
    try {
      const result = await runLiveCase(spec, name, bin);
      const meta: RecordingMeta = {
        adapter: spec.adapter,
        npmPackage: spec.npmPackage,
        version: spec.version,
        versionOutput,
        case: name,
        commandLine: result.commandLine.map((arg, i) => (i === 0 ? basename(arg) : arg)),
        exitCode: result.end.exitCode ?? null,
        signal: result.end.signal ?? null,
        endReason: result.end.reason,
        stderrTail: result.stderr.slice(-4000),
        paths: result.paths,
        request: result.request,
        modelRequests: result.requests.map((r) => ({ method: r.method, path: r.path, reply: r.reply })),
        recordedAt: new Date().toISOString(),
      };
      const exitCode = replayExitCode(meta.exitCode, meta.endReason);
      const golden = await translateRecording(spec, result.stdout, exitCode, result.paths, result.request);
      writeFileSync(recordingFile(spec.adapter, name, 'jsonl'), result.stdout);
      writeFileSync(recordingFile(spec.adapter, name, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      writeFileSync(recordingFile(spec.adapter, name, 'golden.json'), `${JSON.stringify(golden, null, 2)}\n`);
      console.log(
        `[${spec.adapter}] ${name}: ${result.end.reason} (exit ${meta.exitCode}), ${result.stdout.length} bytes, ` +
          `${golden.length} events, ${result.requests.length} model requests, ${Date.now() - started} ms`,
      );
    } catch (error) {
      failures++;
      console.error(`[${spec.adapter}] ${name}: ${(error as Error).stack ?? error}`);
    }
  }
}
process.exitCode = failures > 0 ? 1 : 0;
