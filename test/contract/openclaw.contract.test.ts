import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openclawAdapter } from '../../src/adapters/agents/openclaw/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real openclaw 2026.9.6 (`npm run record -- openclaw`):
// one pretty-printed JSON envelope, read with the `text` protocol. HOME is a temp dir so the
// per-run state dirs the plan creates stay out of the real home.
describeAdapterContract('openclaw', {
  adapter: openclawAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/openclaw/tool.jsonl', import.meta.url)),
  recordWithText: (text) => JSON.stringify({ ok: true, status: 'ok', final: text }),
  protocol: 'text',
  runOptions: { env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'agent-mux-openclaw-contract-')) } },
  expectTypes: [
    'session_start',
    'turn_start',
    'message_start',
    'text_delta',
    'message_stop',
    'progress',
    'cost',
    'turn_end',
  ],
});
