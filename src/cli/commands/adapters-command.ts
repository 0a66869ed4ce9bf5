import { detectProgram, type ProgramStatus } from '../../core/adapter/detect-program.ts';
import type { Adapter } from '../../core/adapter/index.ts';
import type { CliIO } from '../cli-io.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { loadRegistry } from './load-registry.ts';

export const adaptersUsage = `Usage: agent-mux adapters [--config <file>] [--json]

Lists every adapter with its capabilities and whether its program is installed (the version
it reports, compared with the adapter's minimum).`;

interface AdapterRow {
  id: string;
  displayName: string;
  kind: 'process' | 'session';
  origin: string;
  capabilities: Adapter['capabilities'];
  program?: { command: string; minVersion: string; verifiedLive: boolean; testedVersion?: string } & ProgramStatus;
}

const flags = (c: Adapter['capabilities']) =>
  [
    c.resume && 'resume',
    c.fork && 'fork',
    c.thinking !== 'no' && (c.thinking === 'yes' ? 'thinking' : 'thinking?'),
    c.mcp && 'mcp',
    c.approvals !== 'none' && `approvals:${c.approvals}`,
    c.pty !== 'never' && `pty:${c.pty}`,
    c.execModel,
  ]
    .filter(Boolean)
    .join(' ');

/** `agent-mux adapters`. */
export async function adaptersCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(`${adaptersUsage}\n`);
    return 0;
  }
  const { registry } = await loadRegistry(values.config, io.cwd);
  const rows: AdapterRow[] = await Promise.all(
    registry.list().map(async (adapter) => ({
      id: adapter.id,
      displayName: adapter.displayName,
      kind: adapter.launch.kind,
      origin: registry.origin(adapter.id) ?? 'built-in',
      capabilities: adapter.capabilities,
      program: adapter.program
        ? {
            command: adapter.program.command,
            minVersion: adapter.program.minVersion,
            verifiedLive: adapter.program.verifiedLive,
            testedVersion: adapter.program.testedVersion,
            ...(await detectProgram(adapter.program)),
          }
        : undefined,
    })),
  );
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  for (const row of rows) {
    const program = row.program;
    const status = !program
      ? 'no program needed'
      : !program.installed
        ? `not installed (${program.command}; ${program.error ?? 'not found'})`
        : program.version
          ? `${program.command} ${program.version}${program.meetsMinVersion ? '' : ` (below the minimum ${program.minVersion})`}`
          : `${program.command} (${program.error ?? 'version unknown'})`;
    const verified = !program
      ? ''
      : program.verifiedLive
        ? ` · verified live${program.testedVersion ? ` with ${program.testedVersion}` : ''}`
        : ' · not verified live';
    io.stdout.write(
      `${row.id.padEnd(18)} ${row.displayName}${verified}\n${''.padEnd(18)} ${flags(row.capabilities)}\n${''.padEnd(18)} ${status}\n`,
    );
  }
  return 0;
}
