import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readTriggerEvent } from '../../src/github/trigger/read-trigger-event.ts';
import { SIMULATED_EVENT_NAMES } from '../../src/simulate/simulated-event-names.ts';
import { webhookExamples } from '../support/webhook-payload.ts';

const startsSomething = (event: string): boolean =>
  webhookExamples(event).some((payload) => {
    try {
      return readTriggerEvent(event, payload) !== undefined;
    } catch {
      return true; // a triggering event whose sample lacks a field the trigger needs
    }
  });

describe('SIMULATED_EVENT_NAMES', () => {
  it.each(SIMULATED_EVENT_NAMES)('%s can start a run (readTriggerEvent reads one of its samples)', (event) => {
    expect(startsSomething(event)).toBe(true);
  });

  it('no other event GitHub documents can start a run', () => {
    const groups = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as {
      name: string;
    }[];
    const others = groups
      .map((g) => g.name)
      .filter((name) => !(SIMULATED_EVENT_NAMES as readonly string[]).includes(name));
    expect(others.length).toBeGreaterThan(20);
    expect(others.filter(startsSomething)).toEqual([]);
  });
});
