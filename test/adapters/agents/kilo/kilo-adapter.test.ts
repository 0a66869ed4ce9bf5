import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectKiloAuth, kiloAdapter } from '../../../../src/adapters/agents/kilo/index.ts';
import { detectOpenCodeAuth, openCodeTranslator } from '../../../../src/adapters/agents/opencode/index.ts';
import type { NativeRecord } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

function recorded(name: string) {
  const state = openCodeTranslator.init({ debug: false });
  const events: EventDraft[] = [];
  const lines = readFileSync(new URL(`../../../fixtures/streams/kilo/${name}`, import.meta.url), 'utf8').split('\n');
  for (const line of lines.filter(Boolean)) {
    const record: NativeRecord = { kind: 'json', value: JSON.parse(line) };
    events.push(...openCodeTranslator.translate(record, state));
  }
  return { events, state };
}

describe('kiloAdapter', () => {
  it('shares the OpenCode translator and declares Kilo identity', () => {
    const adapter = kiloAdapter({ command: '/opt/kilo' });
    expect(adapter.id).toBe('kilo');
    expect(adapter.program).toMatchObject({ command: '/opt/kilo', npmPackage: '@kilocode/cli', verifiedLive: true });
    expect(adapter.launch.kind === 'process' && adapter.launch.translator).toBe(openCodeTranslator);
    expect(adapter.secretEnv).toContain('KILO_API_KEY');
  });

  it('translates the recorded Kilo tool run (same events as OpenCode, extra fields ignored)', () => {
    const { events, state } = recorded('tool.jsonl');
    expect(events.map((e) => e.type)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
      'message_stop',
      'cost',
      'message_start',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(state.outcome?.status).toBe('completed');
  });

  it('translates the recorded Kilo 401 and 429', () => {
    expect(recorded('auth-401.jsonl').events.map((e) => e.type)).toContain('auth_error');
    expect(recorded('rate-429.jsonl').events.find((e) => e.type === 'rate_limit_error')).toMatchObject({
      retryAfterMs: 1000,
    });
  });
});

describe('auth detection (OpenCode and Kilo)', () => {
  const home = mkdtempSync(join(tmpdir(), 'agent-mux-oc-auth-'));
  it('finds provider keys and the CLI own key in the environment', () => {
    expect(detectOpenCodeAuth({ ANTHROPIC_API_KEY: 'x' })).toMatchObject({
      status: 'authenticated',
      method: 'api_key',
      details: ['ANTHROPIC_API_KEY'],
    });
    expect(detectKiloAuth({ KILO_API_KEY: 'x' })).toMatchObject({ status: 'authenticated', details: ['KILO_API_KEY'] });
  });

  it('reads auth.json under XDG_DATA_HOME, never the secrets', () => {
    const data = join(home, 'data');
    mkdirSync(join(data, 'opencode'), { recursive: true });
    writeFileSync(
      join(data, 'opencode', 'auth.json'),
      JSON.stringify({ anthropic: { type: 'api', key: 'sk-secret' } }),
    );
    const status = detectOpenCodeAuth({ XDG_DATA_HOME: data });
    expect(status).toMatchObject({ status: 'authenticated', method: 'config_file' });
    expect(JSON.stringify(status)).not.toContain('sk-secret');
    expect(detectKiloAuth({ XDG_DATA_HOME: data }).status).toBe('unknown');
    mkdirSync(join(data, 'kilo'), { recursive: true });
    writeFileSync(join(data, 'kilo', 'auth.json'), '{}');
    expect(detectKiloAuth({ XDG_DATA_HOME: data }).status).toBe('unauthenticated');
    writeFileSync(join(data, 'kilo', 'auth.json'), '{broken');
    expect(detectKiloAuth({ XDG_DATA_HOME: data }).status).toBe('unknown');
  });
});
