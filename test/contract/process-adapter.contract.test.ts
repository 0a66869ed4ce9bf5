import { fileURLToPath } from 'node:url';
import { processAdapter } from '../../src/adapters/protocols/process/process-adapter.ts';
import { describeAdapterContract } from './adapter-contract.ts';

describeAdapterContract('process (json-lines)', {
  adapter: processAdapter('process', { binary: 'unused' }),
  stream: fileURLToPath(new URL('../fixtures/streams/process/basic.jsonl', import.meta.url)),
  recordWithText: (text) => JSON.stringify({ type: 'progress', summary: text }),
  expectTypes: ['progress', 'tool_call_start', 'tool_call_ready', 'tool_result', 'comment', 'cost'],
  terminal: true,
});
