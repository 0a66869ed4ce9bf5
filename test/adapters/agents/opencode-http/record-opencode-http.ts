/**
 * Records the `GET /event` SSE stream the opencode-http session reads, per live case:
 * `node test/adapters/opencode-http/record-opencode-http.ts [case…]` writes
 * test/fixtures/streams/opencode-http/<case>.sse, <case>.meta.json and <case>.golden.json (the drafts
 * the session emitted). Runs the real CLI against the fake model server; not part of the unit tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opencodeHttpAdapter } from '../../../../src/adapters/agents/opencode-http/index.ts';
import type { SessionContext } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { startFakeModelServer } from '../../../live/fake-model-server.ts';
import type { LiveCase, LiveCaseName } from '../../../live/live-spec.ts';
import { OPENCODE_HTTP_BIN, spec } from '../../../live/specs/opencode-http.live.ts';

const out = join(import.meta.dirname, '../../../fixtures/streams/opencode-http');
mkdirSync(out, { recursive: true });
const names = (process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(spec.cases)) as LiveCaseName[];

for (const name of names) {
  const c = spec.cases[name];
  if (!c || 'skip' in c) continue;
  await record(name, c);
}

async function record(name: LiveCaseName, c: LiveCase): Promise<void> {
  const fake = await startFakeModelServer({ case: name });
  const home = mkdtempSync(join(tmpdir(), 'och-home-'));
  const workspace = join(home, 'workspace');
  mkdirSync(workspace);
  const raw: string[] = [];
  const drafts: EventDraft[] = [];
  const asked: string[] = [];
  try {
    const { env } = await spec.setup({ baseUrl: fake.url, home, workspace, bin: OPENCODE_HTTP_BIN, case: name });
    const adapter = opencodeHttpAdapter({ command: OPENCODE_HTTP_BIN, onRawEvent: (data) => raw.push(data) });
    if (adapter.launch.kind !== 'session') throw new Error('not a session adapter');
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), spec.timeoutMs ?? 120_000);
    const ctx: SessionContext = {
      request: { prompt: c.prompt, cwd: workspace },
      runId: `rec-${name}`,
      taskId: 'task',
      leaseToken: 'lease',
      leaseEpoch: 1,
      mcpUrl: '',
      mcpToken: '',
      workspacePath: workspace,
      env: { PATH: process.env.PATH, HOME: home, ...env },
      debug: false,
      policy: c.policy ?? { default: 'allow' },
      emit: (draft) => drafts.push(draft),
      signal: abort.signal,
      approvals: {
        request: async (req) => {
          asked.push(req.toolName);
          return { kind: 'deny', reason: 'denied by the recorder', by: 'recorder' };
        },
      },
    };
    const session = await adapter.launch.open(ctx);
    const outcome = await session.done;
    clearTimeout(timer);
    const sse = raw.map((data) => `data: ${data}\n\n`).join('');
    writeFileSync(join(out, `${name}.sse`), sse);
    const meta = {
      adapter: 'opencode-http',
      case: name,
      version: spec.version,
      command: `${OPENCODE_HTTP_BIN} serve --port <free> --hostname 127.0.0.1`,
      prompt: c.prompt,
      policy: c.policy ?? { default: 'allow' },
      approvalsAsked: asked,
      outcome,
      modelRequests: fake.requests.length,
    };
    writeFileSync(join(out, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    const golden = drafts.filter((d) => d.type !== 'log');
    writeFileSync(join(out, `${name}.golden.json`), `${JSON.stringify(golden, null, 2)}\n`);
    console.log(name, outcome.status, outcome.message ?? '', `${raw.length} events`, `asked=${asked.join(',')}`);
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}
