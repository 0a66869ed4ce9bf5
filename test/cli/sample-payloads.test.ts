import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { SIMULATED_EVENT_NAMES } from '../../src/simulate/simulated-event-names.ts';
import { createSimulateFixture, type SimulateFixture } from '../simulate/simulate-fixture.ts';
import { memoryIO } from '../support/memory-io.ts';

const dir = new URL('../../examples/payloads/', import.meta.url).pathname;

let fixture: SimulateFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('examples/payloads: the sample payloads simulate shows in its help', () => {
  it('has one sample per event that can start a run', () => {
    expect(readdirSync(dir).sort()).toEqual(SIMULATED_EVENT_NAMES.map((e) => `${e}.json`).sort());
  });

  it.each(SIMULATED_EVENT_NAMES)('%s.json starts a demo run that succeeds (exit 0)', async (event) => {
    // A push starts a run only where the repository asks for automatic reviews.
    fixture = await createSimulateFixture(
      event === 'pull_request' ? { '.github/agent-mux.yml': 'review:\n  on: [synchronize]\n' } : {},
    );
    const m = memoryIO(fixture.checkout);
    const code = await main(['simulate', '--event', event, '--payload', join(dir, `${event}.json`)], m.io);
    expect(m.stderr()).toBe('');
    expect(code).toBe(0);
    expect(m.stdout()).toContain('decision: run agent demo');
    expect(m.stdout()).toMatch(/run run_\S+: success/);
    if (event === 'pull_request_review_comment') {
      expect(m.stdout()).toMatch(/── reply \d+ in the review thread of comment 2001 on #3 by @agent-mux\[bot\]/);
    }
    if (event.startsWith('pull_request')) {
      // The sample's head branch is not in the checkout: the simulation says what it made up.
      expect(m.stdout()).toMatch(/^note: the payload's head branch reword-readme is not in this repository/m);
      expect(m.stdout()).toContain('no pull request');
    } else {
      expect(m.stdout()).toMatch(/── pull request #\d+: agent-mux: /);
    }
  });
});
