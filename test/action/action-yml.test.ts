import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACTION_INPUTS, ActionInputError, readActionInputs } from '../../src/action/action-inputs.ts';
import { ACTION_OUTPUTS } from '../../src/action/action-outputs.ts';

const root = new URL('../../', import.meta.url).pathname;
const action = parse(readFileSync(`${root}action.yml`, 'utf8')) as {
  runs: { using: string; main: string; post: string };
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
};

describe('action.yml', () => {
  it('declares exactly the outputs the code sets', () => {
    expect(Object.keys(action.outputs).sort()).toEqual([...ACTION_OUTPUTS].sort());
  });

  it('declares exactly the inputs the code reads, each with a description, all kebab-case', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...ACTION_INPUTS].sort());
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(input.description.length).toBeGreaterThan(10);
    }
    expect(action.inputs['github-token']?.default).toBe('${{ github.token }}');
  });

  it('runs on node24 from the committed bundles, with a post step', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js', post: 'dist/post/index.js' });
    expect(existsSync(`${root}dist/index.js`)).toBe(true);
    expect(existsSync(`${root}dist/post/index.js`)).toBe(true);
  });

  it('the code reads no input that action.yml does not declare', () => {
    const read: string[] = [];
    readActionInputs((name) => {
      read.push(name);
      return name === 'github-token' ? 't' : '';
    });
    for (const name of read) expect(action.inputs).toHaveProperty([name]);
  });

  it('a bad input names itself', () => {
    const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? '';
    expect(() => readActionInputs(inputs({}))).toThrow(/github-token/);
    expect(() => readActionInputs(inputs({ 'github-token': 't', 'timeout-minutes': 'soon' }))).toThrow(
      ActionInputError,
    );
    expect(() => readActionInputs(inputs({ 'github-token': 't', 'timeout-minutes': 'soon' }))).toThrow(
      /timeout-minutes/,
    );
    for (const [input, value, unit] of [
      ['timeout-minutes', 'abc', 'minutes (expected a number greater than 0 and at most 1440)'],
      ['approval-timeout-minutes', '-5', 'minutes (expected a number greater than 0 and at most 1440)'],
      ['approval-timeout-minutes', '1e3', 'minutes (expected a number greater than 0 and at most 1440)'],
      ['poll-interval-seconds', '0', 'seconds (expected a number greater than 0 and at most 3600)'],
      ['poll-interval-seconds', 'Infinity', 'seconds (expected a number greater than 0 and at most 3600)'],
    ] as const) {
      expect(() => readActionInputs(inputs({ 'github-token': 't', [input]: value }))).toThrow(
        `input ${input}: "${value}" is not a number of ${unit}`,
      );
    }
    expect(readActionInputs(inputs({ 'github-token': 't', 'poll-interval-seconds': '0.5' })).pollIntervalMs).toBe(500);
    const ok = readActionInputs(
      inputs({
        'github-token': 't',
        'allowed-bots': 'a[bot], b[bot]',
        'timeout-minutes': '2',
        'anthropic-api-key': 'k',
      }),
    );
    expect(ok).toMatchObject({
      allowedBots: ['a[bot]', 'b[bot]'],
      timeoutMs: 120_000,
      apiKeys: { ANTHROPIC_API_KEY: 'k' },
    });
  });
});

describe('example workflows', () => {
  const dir = `${root}examples/workflows/`;
  const files = ['claude-code.yml', 'codex.yml', 'remote-pi.yml', 'several-agents.yml'];
  for (const file of files) {
    it(`${file}: uses the Action with declared inputs only, and never puts event text into a script`, () => {
      const text = readFileSync(dir + file, 'utf8');
      const workflow = parse(text) as {
        permissions: Record<string, string>;
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, string>; run?: string }[] }>;
      };
      expect(workflow.permissions).toMatchObject({
        contents: 'write',
        issues: 'write',
        'pull-requests': 'write',
        checks: 'write',
      });
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      const step = steps.find((s) => s.uses?.startsWith('agent-mux/agent-mux@'));
      expect(step).toBeDefined();
      for (const name of Object.keys(step?.with ?? {})) expect(action.inputs).toHaveProperty([name]);
      for (const s of steps) expect(s.run ?? '').not.toMatch(/\$\{\{\s*github\.event/);
      // event text appears only in the job's if: filter, never in a step (script, input or env)
      for (const s of steps)
        expect(JSON.stringify(s)).not.toMatch(/github\.event\.(comment|review|issue|pull_request)\.(body|title)/);
    });
  }
});
