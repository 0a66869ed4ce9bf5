import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../live/load-specs.ts';
import { recordedCases, replayExitCode, translateRecording } from '../live/recordings.ts';

// Every recorded native stream, replayed through its adapter's translator (the path of
// `agent-mux replay`), must give the golden normalized events.
const specs = await loadSpecs();

describe('recorded CLI streams', () => {
  it('every live spec pins a version and lists its cases', () => {
    for (const spec of specs) {
      expect(spec.version, spec.adapter).toMatch(/^\d+\.\d+\.\d+/);
      expect(Object.keys(spec.cases).length, spec.adapter).toBeGreaterThan(0);
    }
  });
  for (const spec of specs) {
    for (const recorded of recordedCases(spec)) {
      it(`${spec.adapter}/${recorded.name} (${spec.npmPackage}@${recorded.meta.version}) matches its golden events`, async () => {
        const events = await translateRecording(
          spec,
          recorded.stdout,
          replayExitCode(recorded.meta.exitCode, recorded.meta.endReason),
          recorded.meta.paths,
          recorded.meta.request,
        );
        expect(events).toEqual(recorded.golden);
      });
    }
  }
});
