import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentMuxRemoteAdapter } from '../../../../src/adapters/protocols/agent-mux-remote/index.ts';
import { wrapInvocation } from '../../../../src/adapters/protocols/agent-mux-remote/remote-invocation.ts';
import type { Adapter } from '../../../../src/core/adapter/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const root = new URL('../../../../', import.meta.url).pathname;
const cli = [process.execPath, join(root, 'src/cli/index.ts')];
const secret = 'sk-remote-0123456789abcdefghij';

describe('agent-mux-remote', () => {
  it('runs another installation locally and passes its normalized events through', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-remote-'));
    const adapter = agentMuxRemoteAdapter({ command: cli, remoteAdapter: 'demo' });
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'fix the typo', cwd } }));
    expectWellFormedStream(events, 'agent-mux-remote');
    expect(end.reason).toBe('completed');
    expect(end.output).toMatchObject({ summary: 'Nothing changed.' });
    expect(events.some((e) => e.type === 'tool_call_ready' && e.toolName === 'read_task')).toBe(true);
    // The remote's cost events count here.
    expect(end.totals).toMatchObject({ inputTokens: 1200, outputTokens: 180, usd: 0.0042 });
    expect(end.sessionId).toMatch(/^demo_/);
  });

  it('reports a remote run that did not complete as failed with its reason', async () => {
    const adapter = agentMuxRemoteAdapter({ command: cli, remoteAdapter: 'no-such-adapter' });
    const { end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: tmpdir() } }));
    expect(end.reason).toBe('crashed');
    expect(end.exitCode).toBe(2);
  });

  it('over ssh, hands secrets to the remote through stdin and its environment, never argv', async () => {
    const fakeSsh: Adapter = agentMuxRemoteAdapter({
      invocation: { mode: 'ssh', host: 'gpu-box' },
      command: [
        process.execPath,
        '-e',
        "process.stdin.resume(); console.log(JSON.stringify({type:'run_end',reason:'completed',output:{key:process.env.REMOTE_KEY},durationMs:1,totals:{}}))",
      ],
      remoteAdapter: 'demo',
      forwardEnv: ['REMOTE_KEY'],
    });
    const launch = fakeSsh.launch;
    if (launch.kind !== 'process') throw new Error('unreachable');
    const adapter: Adapter = {
      ...fakeSsh,
      launch: {
        ...launch,
        plan: async (ctx) => ({ ...(await launch.plan(ctx)), command: fixtureBin('fake-ssh.mjs') }),
      },
    };
    let argv: string[] = [];
    const plan = await launch.plan({
      request: { prompt: 'p', cwd: tmpdir() },
      runId: 'r',
      taskId: 't',
      leaseToken: '',
      leaseEpoch: 0,
      mcpUrl: '',
      mcpToken: '',
      workspacePath: tmpdir(),
      env: { REMOTE_KEY: secret },
      debug: false,
    });
    argv = [plan.command, ...plan.args];
    expect(argv.join(' ')).not.toContain(secret);
    const { events, end } = await collectRun(
      startRun({ adapter, request: { prompt: 'p', cwd: tmpdir() }, env: { ...process.env, REMOTE_KEY: secret } }),
    );
    expect(end.reason).toBe('completed');
    // It arrived in the remote environment, and no event shows it.
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(end.output).toEqual({ key: '***' });
  });

  it('docker and k8s invocations keep secret values out of argv', () => {
    const argv = ['agent-mux', 'run', '--json', '-'];
    const secrets = { OPENAI_API_KEY: secret };
    const docker = wrapInvocation({ mode: 'docker', image: 'ghcr.io/org/agent:1' }, argv, secrets);
    expect(docker.args).toEqual(['run', '--rm', '-i', '-e', 'OPENAI_API_KEY', 'ghcr.io/org/agent:1', ...argv]);
    const k8s = wrapInvocation({ mode: 'k8s', pod: 'agent-0', namespace: 'agents' }, argv, secrets);
    expect(k8s.command).toBe('kubectl');
    expect(k8s.args.join(' ')).not.toContain(secret);
    expect(k8s.stdinPrefix).toBe(`OPENAI_API_KEY=${secret}\n\n`);
  });
});
