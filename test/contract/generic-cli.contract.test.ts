import { fileURLToPath } from 'node:url';
import { genericCliAdapter } from '../../src/adapters/protocols/generic-cli/generic-cli-adapter.ts';
import { genericCliAdapterConfigSchema } from '../../src/core/config/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// `per-session` only: the suite swaps the program of a process launch (`withProgram`); `persistent` is a
// session launch over one shared program, tested in test/adapters/generic-cli/.
describeAdapterContract('generic-cli (per-session, text)', {
  adapter: genericCliAdapter(
    'generic-cli',
    genericCliAdapterConfigSchema.parse({ type: 'generic-cli', command: 'unused' }),
  ),
  stream: fileURLToPath(new URL('../fixtures/streams/generic-cli/basic.txt', import.meta.url)),
  recordWithText: (text) => text,
  expectTypes: ['message_start', 'text_delta', 'message_stop'],
  protocol: 'text',
});
