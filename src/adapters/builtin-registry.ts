import { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { builtinFolders } from './builtin-adapters.generated.ts';
import { acpAdapter } from './protocols/acp/index.ts';
import { chatSseAdapter } from './protocols/chat-sse/index.ts';
import { externalAdapter } from './protocols/external/external-adapter.ts';
import { genericCliAdapter } from './protocols/generic-cli/generic-cli-adapter.ts';
import { genericHttpAdapter } from './protocols/generic-http/index.ts';
import { genericJobAdapter } from './protocols/generic-job/generic-job-adapter.ts';
import { httpAdapter } from './protocols/http/index.ts';
import { processAdapter } from './protocols/process/process-adapter.ts';

/**
 * The registry every front end starts from: the built-in adapters (every folder's `builtin`, as
 * `npm run generate` lists them), plus the factories that turn a configuration's `adapters` entries
 * into adapters.
 */
export function createBuiltinRegistry(): AdapterRegistry {
  const registry = new AdapterRegistry();
  for (const folder of builtinFolders) for (const create of folder.adapters) registry.register(create());
  registry.registerConfigType('process', (id, config) => processAdapter(id, config));
  registry.registerConfigType('generic-cli', (id, config) => genericCliAdapter(id, config));
  registry.registerConfigType('generic-job', (id, config) => genericJobAdapter(id, config));
  registry.registerConfigType('external', (id, config) => externalAdapter(id, config));
  registry.registerConfigType('http', (id, config) => httpAdapter(id, config));
  registry.registerConfigType('chat-sse', (id, config) => chatSseAdapter(id, config));
  registry.registerConfigType('generic-http', (id, config) => genericHttpAdapter(id, config));
  registry.registerConfigType('acp', (id, config) => acpAdapter(id, config));
  return registry;
}
