import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ompAdapter, ompTranslator } from '../../../../src/adapters/agents/omp/index.ts';
import { ompPlan, ompPolicyOverlay } from '../../../../src/adapters/agents/omp/omp-plan.ts';
import { piTranslator } from '../../../../src/adapters/agents/pi/index.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const replay = (name: string, debug = false) => {
  const state = ompTranslator.init({ debug });
  const lines = readFileSync(new URL(`../../../fixtures/streams/omp/${name}.jsonl`, import.meta.url), 'utf8').split(
    '\n',
  );
  const drafts: EventDraft[] = lines
    .filter(Boolean)
    .flatMap((l) => ompTranslator.translate({ kind: 'json', value: JSON.parse(l) }, state));
  return { drafts, state };
};

describe('omp translator (pi format, shared translator)', () => {
  it('uses the pi translator, not a copy', () => {
    expect(Object.keys(ompTranslator)).toEqual(Object.keys(piTranslator));
  });

  it('replays the recorded tool stream (RPC mode, where omp streams the call’s input too)', () => {
    const { drafts, state } = replay('tool');
    const tools = drafts.filter((d) => d.type.startsWith('tool'));
    expect(tools.map((d) => d.type)).toEqual([
      'tool_call_start',
      'tool_input_delta',
      'tool_input_delta',
      'tool_call_ready',
      'tool_result',
    ]);
    expect(tools[3]).toMatchObject({ toolName: 'bash', input: { command: 'echo agent-mux-live' } });
    expect(state.outcome?.status).toBe('completed');
  });

  it('drops omp-only session events silently (advisor_cost_changed, …) and shows them in debug', () => {
    const { drafts } = replay('plain');
    expect(drafts.some((d) => d.type === 'debug')).toBe(false);
    const debug = replay('plain', true).drafts.filter((d) => d.type === 'debug');
    expect(debug.map((d) => d.type === 'debug' && d.message)).toContain('advisor_cost_changed');
  });

  it('the denied case ends in a tool_result error from the user policy', () => {
    const result = replay('denied').drafts.find((d) => d.type === 'tool_result');
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining('blocked by user policy') });
  });

  it('auth and rate-limit failures become typed errors and a failed outcome', () => {
    const auth = replay('auth-401');
    expect(auth.drafts.some((d) => d.type === 'auth_error')).toBe(true);
    expect(auth.state.outcome?.status).toBe('failed');
    const rate = replay('rate-429');
    expect(rate.drafts.find((d) => d.type === 'rate_limit_error')).toMatchObject({ retryAfterMs: 1000 });
    expect(rate.state.outcome?.status).toBe('failed');
  });
});

const ctx = (request: Partial<RunRequest> = {}, policy?: LaunchContext['policy']): LaunchContext => ({
  request: { prompt: 'do it', cwd: '/work', ...request },
  runId: 'r',
  taskId: 't',
  leaseToken: 'l',
  leaseEpoch: 1,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: '/work',
  env: {},
  debug: false,
  policy,
});

describe('omp plan', () => {
  it('runs RPC mode with the opening commands on stdin, kept open, and real flags', () => {
    const plan = ompPlan(
      ctx({ model: 'fake/claude', thinkingEffort: 'max', resumeSessionId: 's1', systemPrompt: 'Be brief.' }),
      {
        command: 'omp',
      },
    );
    expect(plan.args).toEqual([
      '--mode',
      'rpc',
      '--no-title',
      '--allow-home',
      '--model',
      'fake/claude',
      '--append-system-prompt',
      'Be brief.',
      '--thinking',
      'max',
      '--resume',
      's1',
    ]);
    expect(plan).toMatchObject({ keepStdinOpen: true, cwd: '/work', protocol: 'json-lines' });
    expect(String(plan.stdin)).toContain('"type":"prompt","message":"do it"');
    expect(plan.input?.message('and this')).toEqual({
      type: 'prompt',
      message: 'and this',
      streamingBehavior: 'steer',
    });
    const withFile = ompPlan(ctx({ files: [{ name: 'a.png', path: '/tmp/a.png' }] }), { command: 'omp' });
    expect(withFile).toMatchObject({
      stdin: 'do it',
      args: expect.arrayContaining(['json', '--print', '@/tmp/a.png']),
    });
    expect(withFile.input).toBeUndefined();
    expect(plan.cleanup).toBeUndefined();
    expect(ompPlan(ctx({ resumeSessionId: 's1', fork: true }), { command: 'omp' }).args.slice(-2)).toEqual([
      '--fork',
      's1',
    ]);
  });

  it('writes the policy as a --config overlay in a temp dir that cleanup removes', async () => {
    const plan = ompPlan(ctx({}, { default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] }), {
      command: 'omp',
    });
    const file = plan.args[plan.args.indexOf('--config') + 1] as string;
    expect(readFileSync(file, 'utf8')).toBe('tools:\n  approvalMode: yolo\n  approval:\n    "bash": deny\n');
    await plan.cleanup?.();
    expect(existsSync(file)).toBe(false);
  });

  it('maps decisions: ask → prompt (fails closed in --print), globs over built-in names, when-allow skipped', () => {
    expect(ompPolicyOverlay(undefined)).toBeUndefined();
    const overlay = ompPolicyOverlay({
      default: 'deny',
      rules: [
        { tool: 'read', decision: 'allow' },
        { tool: 'bash', decision: 'allow', when: { command: 'ls *' } },
        { tool: 'ast_*', decision: 'ask' },
        { tool: 'mcp__agentmux_approval_prompt', decision: 'allow' },
      ],
    });
    expect(overlay).toContain('approvalMode: always-ask');
    expect(overlay).toContain('"read": allow');
    expect(overlay).toContain('"ast_grep": prompt');
    expect(overlay).toContain('"ast_edit": prompt');
    expect(overlay).toContain('"mcp__agentmux_approval_prompt": allow');
    expect(overlay).not.toContain('"bash"');
  });

  it('detects auth: env keys, models.yml with an apiKey, the opaque agent.db (unknown)', () => {
    const adapter = ompAdapter();
    expect(adapter.detectAuth?.({ OPENAI_API_KEY: 'x', HOME: '/nonexistent' })).toMatchObject({
      status: 'authenticated',
    });
    const home = mkdtempSync(join(tmpdir(), 'omp-auth-'));
    const agent = join(home, '.omp', 'agent');
    mkdirSync(agent, { recursive: true });
    expect(adapter.detectAuth?.({ HOME: home }).status).toBe('unauthenticated');
    writeFileSync(join(agent, 'agent.db'), '');
    expect(adapter.detectAuth?.({ HOME: home })).toMatchObject({
      status: 'unknown',
      details: [join(agent, 'agent.db')],
    });
    writeFileSync(join(agent, 'models.yml'), 'providers:\n  x:\n    apiKey: X_KEY\n');
    expect(adapter.detectAuth?.({ HOME: home })).toMatchObject({ status: 'authenticated', method: 'config_file' });
  });
});
