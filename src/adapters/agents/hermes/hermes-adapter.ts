import { join } from 'node:path';
import type { Adapter } from '../../../core/adapter/index.ts';
import { acpAdapter } from '../../protocols/acp/acp-adapter.ts';
import { cliProgramInfo } from '../../shared/define-cli-adapter.ts';
import { hermesAcpRecord, hermesAcpTranslator } from './hermes-acp-translator.ts';
import { detectHermesAuth, HERMES_KEY_ENV } from './hermes-auth.ts';
import { hermesHome } from './hermes-home.ts';

/** The hermes-agent release recorded live (test/fixtures/streams/hermes/). */
export const HERMES_TESTED_VERSION = '0.18.2';

export interface HermesAdapterOptions {
  /** The executable (default `hermes`). */
  command?: string;
}

/**
 * NousResearch's hermes-agent over the Agent Client Protocol (`hermes acp`): its dangerous-command
 * and file-edit approvals arrive as `session/request_permission` and go to the run's approval
 * channel. Configuration (provider, model, keys) is Hermes's own: `$HERMES_HOME/config.yaml`, `.env`.
 */
export function hermesAdapter(options: HermesAdapterOptions = {}): Adapter {
  const command = options.command ?? 'hermes';
  const base = acpAdapter(
    'hermes',
    { binary: command, args: ['acp'], secretEnv: [...HERMES_KEY_ENV] },
    {
      displayName: 'Hermes Agent',
      expandTemplates: false,
      // Its configuration is under $HERMES_HOME, nothing from the repository beyond the common set.
      readsFromRepository: [],
      keyInputs: { 'openrouter-api-key': 'OPENROUTER_API_KEY' },
      capabilities: {
        // Native Windows is not supported (WSL2).
        platforms: ['darwin', 'linux'],
        sessionPersistence: 'sqlite',
        // 0.18.2's initialize advertises no `mcpCapabilities` (recorded): the run's MCP server over
        // http is not offered to it.
        mcp: false,
      },
      program: cliProgramInfo(
        {
          command,
          minVersion: HERMES_TESTED_VERSION,
          testedVersion: HERMES_TESTED_VERSION,
          install: [
            { type: 'pip', command: "pip install 'hermes-agent[acp]'", notes: 'Python >= 3.11; the acp extra.' },
          ],
          verifiedLive: true,
        },
        command,
      ),
      sessionDir: join(hermesHome(process.env), 'state.db'),
      detectAuth: detectHermesAuth,
    },
  );
  const launch = base.launch;
  if (launch.kind !== 'process' || !launch.controller) return base;
  const controllerOf = launch.controller;
  return {
    ...base,
    // The policy's `shell`, `write_file`, `read_file` as Hermes's own tools (policy-for-agent.ts).
    toolNames: {
      shell: ['terminal', 'process', 'execute_code', 'delegate_task'],
      write_file: ['write_file', 'patch'],
      read_file: ['read_file', 'search_files'],
    },
    launch: {
      ...launch,
      translator: hermesAcpTranslator,
      // The controller answers Hermes's permission questions: it sees them with the tool named
      // (`terminal`, `write_file`, …), so the policy's rules on those names hold.
      controller: (io, ctx) => {
        const controller = controllerOf(io, ctx);
        const onRecord = controller.onRecord;
        return onRecord ? { ...controller, onRecord: (record) => onRecord(hermesAcpRecord(record)) } : controller;
      },
    },
  };
}
