import type { z } from 'zod';
import type { Adapter, Capabilities } from '../../../core/adapter/index.ts';
import type { processAdapterConfigSchema } from '../../../core/config/adapter-config-schema.ts';
import { configuredAdapterBase } from '../../shared/configured-adapter-base.ts';
import { configuredCapabilities } from '../../shared/configured-capabilities.ts';
import { processController } from './process-controller.ts';
import { processTranslator } from './process-translator.ts';

/**
 * The `process` entry of a configuration (`binary`, `args` templates with `{{workspacePath}}`,
 * `{{runId}}`, `{{mcpUrl}}`, … and `${ENV}`, `env`, `costModel`, `secretEnv`), `type` optional.
 */
export type ProcessOptions = Omit<z.input<typeof processAdapterConfigSchema>, 'type'>;

/** The Process protocol: tools from the run's MCP server, approvals relayed through it; interactive. */
export const processCapabilities: Capabilities = configuredCapabilities({
  mcp: true,
  approvals: 'relay',
  sessionPersistence: 'none',
  execModel: 'interactive',
});

/** The Process adapter: any program speaking the json-lines stdio protocol. */
export function processAdapter(id: string, config: ProcessOptions): Adapter {
  return {
    ...configuredAdapterBase({
      id,
      displayName: `${id} (process: ${config.binary})`,
      capabilities: processCapabilities,
      config,
    }),
    // Its tool calls are Process-protocol records answered by the run's tool host: served remotely, they go to the caller.
    callerTools: 'native',
    launch: {
      kind: 'process',
      plan: (ctx) => ({
        command: config.binary,
        args: config.args ?? [],
        env: {
          ...(config.env ?? {}),
          CA_RUN_ID: ctx.runId,
          CA_TASK_ID: ctx.taskId,
          CA_LEASE_TOKEN: ctx.leaseToken,
          CA_FENCING_TOKEN: String(ctx.leaseEpoch),
          MCP_SERVER_URL: ctx.mcpUrl,
          MCP_SERVER_TOKEN: ctx.mcpToken,
          CA_WORKSPACE: ctx.workspacePath,
        },
        keepStdinOpen: true,
        expandTemplates: true,
        protocol: 'json-lines',
      }),
      translator: processTranslator,
      controller: processController,
    },
  };
}
