import { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { demoAdapter } from './demo/demo-adapter.ts';
import { processAdapter } from './process/process-adapter.ts';

/**
 * The registry every front end starts from: the built-in adapters, plus the factories that
 * turn a configuration's `adapters` entries into adapters.
 */
export function createBuiltinRegistry(): AdapterRegistry {
  const registry = new AdapterRegistry();
  registry.register(demoAdapter());
  registry.registerConfigType('process', (id, config) => processAdapter(id, config));
  return registry;
}
