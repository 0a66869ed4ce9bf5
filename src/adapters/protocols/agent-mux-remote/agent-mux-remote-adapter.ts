import { ADAPTER_SPECIFICATION_VERSION, type Adapter } from '../../../core/adapter/index.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import { npmInstallMethod } from '../../shared/define-cli-adapter.ts';
import { type RemoteInvocation, wrapInvocation } from './remote-invocation.ts';
import { remoteTranslator } from './remote-translator.ts';

export interface AgentMuxRemoteOptions {
  invocation?: RemoteInvocation;
  /** The adapter the other installation runs. Default: `$AMUX_REMOTE_AGENT`, else `claude`. */
  remoteAdapter?: string;
  /** The other installation's command (argv). Default `['agent-mux']`. */
  command?: readonly string[];
  /** Names of environment variables handed to the remote run (API keys): through its environment, never argv. */
  forwardEnv?: readonly string[];
}

/**
 * Runs `agent-mux run --json` of another installation — here, in a container, over ssh or in a
 * Kubernetes pod — and passes its normalized events through. The prompt goes on stdin.
 */
export function agentMuxRemoteAdapter(options: AgentMuxRemoteOptions = {}): Adapter {
  const invocation = options.invocation ?? { mode: 'local' };
  const command = options.command ?? ['agent-mux'];
  const forwardEnv = options.forwardEnv ?? [];
  const programCommand =
    invocation.mode === 'local'
      ? (command[0] as string)
      : { docker: 'docker', ssh: 'ssh', k8s: 'kubectl' }[invocation.mode];
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'agent-mux-remote',
    displayName: `agent-mux (remote via ${invocation.mode})`,
    capabilities: cliCapabilities({
      resume: false,
      fork: false,
      thinking: 'model-dependent',
      mcp: false,
      approvals: 'none',
      platforms: ['darwin', 'linux'],
      sessionPersistence: 'remote',
      streaming: 'full',
    }),
    program: {
      command: programCommand,
      versionArgs: ['--version'],
      minVersion: '0.0.0',
      install: [npmInstallMethod('agent-mux', { notes: 'on the remote host or in its image' })],
      verifiedLive: invocation.mode === 'local',
    },
    secretEnv: forwardEnv,
    // The remote agent's own adapter resets what its agent reads, on the remote host.
    readsFromRepository: [],
    launch: {
      kind: 'process',
      plan: (ctx) => {
        const remoteAdapter = options.remoteAdapter ?? ctx.env.AMUX_REMOTE_AGENT ?? 'claude';
        const argv = [
          ...command,
          'run',
          '--json',
          '--approve',
          'none',
          '--adapter',
          remoteAdapter,
          ...(ctx.request.model ? ['--model', ctx.request.model] : []),
          '-',
        ];
        const secrets: Record<string, string> = {};
        for (const name of forwardEnv) {
          const value = ctx.request.env?.[name] ?? ctx.env[name];
          if (value !== undefined) secrets[name] = value;
        }
        const wrapped = wrapInvocation(invocation, argv, secrets);
        return {
          command: wrapped.command,
          args: wrapped.args,
          // docker reads `-e NAME` values from its own environment; local runs get them directly.
          env: invocation.mode === 'local' || invocation.mode === 'docker' ? secrets : {},
          stdin: `${wrapped.stdinPrefix}${ctx.request.prompt}\n`,
          protocol: 'json-lines',
        };
      },
      translator: remoteTranslator,
    },
  };
}
