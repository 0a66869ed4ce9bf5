import { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { claudeAdapter } from './agents/claude/index.ts';
import { codexAdapter } from './agents/codex/index.ts';
import { copilotAdapter } from './agents/copilot/index.ts';
import { cursorAdapter } from './agents/cursor/index.ts';
import { demoAdapter } from './agents/demo/demo-adapter.ts';
import { geminiAdapter } from './agents/gemini/index.ts';
import { hermesAdapter } from './agents/hermes/index.ts';
import { kiloAdapter } from './agents/kilo/index.ts';
import { ompAdapter } from './agents/omp/index.ts';
import { openclawAdapter } from './agents/openclaw/index.ts';
import { opencodeAdapter } from './agents/opencode/index.ts';
import { opencodeHttpAdapter } from './agents/opencode-http/index.ts';
import { piAdapter } from './agents/pi/index.ts';
import { qwenAdapter } from './agents/qwen/index.ts';
import {
  acpAdapter,
  codexAcpAdapter,
  copilotAcpAdapter,
  geminiAcpAdapter,
  kiloAcpAdapter,
  ompAcpAdapter,
  opencodeAcpAdapter,
  qwenAcpAdapter,
} from './protocols/acp/index.ts';
import { agentMuxRemoteAdapter } from './protocols/agent-mux-remote/index.ts';
import { chatSseAdapter } from './protocols/chat-sse/index.ts';
import { externalAdapter } from './protocols/external/external-adapter.ts';
import { genericCliAdapter } from './protocols/generic-cli/generic-cli-adapter.ts';
import { genericHttpAdapter } from './protocols/generic-http/index.ts';
import { genericJobAdapter } from './protocols/generic-job/generic-job-adapter.ts';
import { httpAdapter } from './protocols/http/index.ts';
import { processAdapter } from './protocols/process/process-adapter.ts';

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
  registry.register(copilotAcpAdapter());
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
