import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../core/adapter/index.ts';
import { processController } from './process-controller.ts';
import { processTranslator } from './process-translator.ts';

export interface ProcessAdapterConfig {
  /** The program to run. */
  binary: string;
  /** Argument templates: `{{workspacePath}}`, `{{runId}}`, `{{mcpUrl}}`, … and `${ENV}`. */
  args?: readonly string[];
  /** Extra environment, values may use `${ENV}` and `{{…}}`. */
  env?: Record<string, string>;
  protocol?: 'json-lines';
  costModel?: string;
  /** Names of environment variables whose values must never appear in events. */
  secretEnv?: readonly string[];
}

export const processCapabilities: Capabilities = {
  resume: false,
  fork: false,
  thinking: 'no',
  mcp: true,
  approvals: 'relay',
  pty: 'never',
  platforms: ['darwin', 'linux'],
  sessionPersistence: 'none',
  execModel: 'interactive',
  nativeSessionIds: false,
  turnCompletion: true,
  streaming: 'text',
};

/** Seed 001's Process adapter: any program speaking the json-lines stdio protocol. */
export function processAdapter(id: string, config: ProcessAdapterConfig): Adapter {
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName: `${id} (process: ${config.binary})`,
    capabilities: processCapabilities,
    costModel: config.costModel,
    secretEnv: config.secretEnv,
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
          CA_FENCING_TOKEN: String(ctx.fencingToken),
          MCP_SERVER_URL: ctx.mcpUrl,
          CA_WORKSPACE: ctx.workspacePath,
        },
        keepStdinOpen: true,
        protocol: 'json-lines',
      }),
      translator: processTranslator,
      controller: processController,
    },
  };
}
