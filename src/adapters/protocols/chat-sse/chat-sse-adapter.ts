import { ADAPTER_SPECIFICATION_VERSION, type Adapter } from '../../../core/adapter/index.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import type { ChatSseOptions } from './chat-sse-request.ts';
import { openChatSseSession } from './chat-sse-session.ts';

/**
 * An agent server speaking llm-gateway's `POST /chat` Server-Sent-Events API: each run is one
 * request, whose event stream is translated as it arrives; permission relays go through the run's
 * policy and approval channel and are answered with `POST /chat/relay/:relayId`.
 */
export function chatSseAdapter(id: string, config: ChatSseOptions): Adapter {
  const secretEnv = [...(config.secretEnv ?? []), ...(config.auth.type === 'bearer' ? [config.auth.tokenEnv] : [])];
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName: `${id} (chat-sse agent server at ${config.baseUrl})`,
    capabilities: cliCapabilities({
      resume: false,
      fork: false,
      thinking: 'model-dependent',
      mcp: false,
      approvals: 'relay',
      sessionPersistence: 'none',
      streaming: 'full',
    }),
    ...((config.costModel ?? config.model) ? { costModel: config.costModel ?? config.model } : {}),
    ...(secretEnv.length > 0 ? { secretEnv } : {}),
    launch: { kind: 'session', open: (ctx) => openChatSseSession(ctx, config) },
  };
}
