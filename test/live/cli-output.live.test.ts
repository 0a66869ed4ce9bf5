import { describe, expect, it } from 'vitest';
import { installCli } from './cli-cache.ts';
import type { LiveCaseName } from './live-spec.ts';
import { loadSpecs } from './load-specs.ts';
import { recordedCases, replayExitCode, translateRecording } from './recordings.ts';
import { runLiveCase } from './run-live-case.ts';

// Runs every recorded case again against the real CLI and compares the normalized events with the
// recording's, so a CLI version that changes its output is caught.
const specs = await loadSpecs(process.env.AGENT_MUX_LIVE_ONLY?.split(',').filter(Boolean));

for (const spec of specs) {
  const cases = recordedCases(spec);
  const unavailable = spec.unavailable?.();
  if (unavailable) {
    // Said in the log, and counted as skipped: the recordings are still replayed (test/adapters/recordings.test.ts).
    console.warn(`[live] ${spec.adapter}: skipped, ${unavailable}`);
    describe.skip(`${spec.adapter} ${spec.npmPackage}@${spec.version} live (${unavailable})`, () => {
      it('installs', () => undefined);
    });
    continue;
  }
  describe.runIf(cases.length > 0)(`${spec.adapter} ${spec.npmPackage}@${spec.version} live`, () => {
    let bin = '';
    it('installs', async () => {
      bin = await installCli(spec);
      expect(bin).toContain(spec.binName);
    });
    for (const recorded of cases) {
      it(`${recorded.name}: prints what was recorded`, async () => {
        expect(bin, 'the CLI did not install').not.toBe('');
        const live = await runLiveCase(spec, recorded.name as LiveCaseName, bin);
        const exitCode = replayExitCode(live.end.exitCode ?? null, live.end.reason);
        const events = await translateRecording(spec, live.stdout, exitCode, live.paths, live.request);
        if (spec.variesBetweenRuns) {
          const types = (list: readonly unknown[]) => list.map((event) => (event as { type: string }).type);
          expect(types(events)).toEqual(types(recorded.golden));
        } else expect(events).toEqual(recorded.golden);
        expect(live.end.reason).toBe(recorded.meta.endReason);
      });
    }
  });
}
