import { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import {
  acpAdapter,
  codexAcpAdapter,
  geminiAcpAdapter,
  kiloAcpAdapter,
  ompAcpAdapter,
  opencodeAcpAdapter,
  qwenAcpAdapter,
} from './acp/index.ts';
import { agentMuxRemoteAdapter } from './agent-mux-remote/index.ts';
import { chatSseAdapter } from './chat-sse/index.ts';
import { claudeAdapter } from './claude/index.ts';
import { codexAdapter } from './codex/index.ts';
import { copilotAdapter } from './copilot/index.ts';
import { cursorAdapter } from './cursor/index.ts';
import { demoAdapter } from './demo/demo-adapter.ts';
import { externalAdapter } from './external/external-adapter.ts';
import { geminiAdapter } from './gemini/index.ts';
import { genericCliAdapter } from './generic-cli/generic-cli-adapter.ts';
import { genericHttpAdapter } from './generic-http/index.ts';
import { genericJobAdapter } from './generic-job/generic-job-adapter.ts';
import { hermesAdapter } from './hermes/index.ts';
import { httpAdapter } from './http/index.ts';
import { kiloAdapter } from './kilo/index.ts';
import { ompAdapter } from './omp/index.ts';
import { openclawAdapter } from './openclaw/index.ts';
import { opencodeAdapter } from './opencode/index.ts';
import { opencodeHttpAdapter } from './opencode-http/index.ts';
import { piAdapter } from './pi/index.ts';
import { processAdapter } from './process/process-adapter.ts';
import { qwenAdapter } from './qwen/index.ts';

/**
 * The registry every front end starts from: the built-in adapters, plus the factories that
 * turn a configuration's `adapters` entries into adapters.
 */
export function createBuiltinRegistry(): AdapterRegistry {
  const registry = new AdapterRegistry();
  registry.register(demoAdapter());
  registry.register(claudeAdapter());
  registry.register(codexAdapter());
  registry.register(codexAcpAdapter());
  registry.register(geminiAdapter());
  registry.register(geminiAcpAdapter());
  registry.register(qwenAdapter());
  registry.register(qwenAcpAdapter());
  registry.register(copilotAdapter());
  registry.register(cursorAdapter());
  registry.register(opencodeAdapter());
  registry.register(opencodeAcpAdapter());
  registry.register(kiloAdapter());
  registry.register(kiloAcpAdapter());
  registry.register(opencodeHttpAdapter());
  registry.register(piAdapter());
  registry.register(ompAdapter());
  registry.register(ompAcpAdapter());
  registry.register(openclawAdapter());
  registry.register(hermesAdapter());
  registry.register(agentMuxRemoteAdapter());
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
