import { fileURLToPath } from 'node:url';
import { genericJobAdapter } from '../../src/adapters/protocols/generic-job/generic-job-adapter.ts';
import { genericJobAdapterConfigSchema } from '../../src/core/config/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The suite swaps the command line (`withProgram`); the plan's `maxRuntimeMs` (the default 5m) stays, and
// max_runtime itself is tested in test/adapters/generic-job/.
describeAdapterContract('generic-job (text)', {
  adapter: genericJobAdapter(
    'generic-job',
    genericJobAdapterConfigSchema.parse({ type: 'generic-job', command: 'unused' }),
  ),
  stream: fileURLToPath(new URL('../fixtures/streams/generic-job/basic.txt', import.meta.url)),
  recordWithText: (text) => text,
  expectTypes: ['message_start', 'text_delta', 'message_stop'],
  protocol: 'text',
});
