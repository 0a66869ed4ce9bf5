import {
  ADAPTER_SPECIFICATION_VERSION,
  type Adapter,
  type AgentSession,
  type AuthStatus,
  type InstallMethod,
  type LaunchContext,
  type ProcessLaunch,
  type ProgramInfo,
  type SessionContext,
  type SessionFileDeclaration,
  type SpawnPlan,
} from '../../core/adapter/index.ts';
import type { NativeToolNames } from '../../core/tools/policy-for-agent.ts';
import { type CliCapabilities, cliCapabilities } from './cli-capabilities.ts';

/** Environment variables as an adapter reads them (`process.env` or a test's copy). */
export type AdapterEnv = Readonly<Record<string, string | undefined>>;

/** The options every CLI adapter factory takes; an adapter may add its own. */
export interface CliAdapterOptions {
  /** The executable; default the definition's `program.command`. */
  command?: string;
}

/** A CLI adapter's options once the executable's default is applied. */
export type ResolvedCliOptions<O extends CliAdapterOptions> = Omit<O, 'command'> & { command: string };

/** The facts about a CLI program that differ from one agent to the next. */
export interface CliProgramFacts {
  /** The executable's default name, used when the factory's `command` option is not given. */
  command: string;
  /** How to ask the version. Default `['--version']`; a function when it depends on the executable used. */
  versionArgs?: readonly string[] | ((command: string) => readonly string[]);
  minVersion: string;
  /** The npm package, when the CLI is on npm: an `npm install -g <package>` entry is derived from it. */
  npmPackage?: string;
  /** The version tested (recorded live). */
  testedVersion?: string;
  /** Changes the derived npm entry: `version` pins it (`<package>@<version>`), `notes` is shown with it. */
  npmInstall?: { version?: string; notes?: string };
  /** npm `overrides` for installing it: pins a dependency at the version tested (see {@link ProgramInfo}). */
  npmOverrides?: Readonly<Record<string, string>>;
  /** The other ways to install it, listed after the derived npm entry. */
  install?: readonly InstallMethod[];
  /** False when the CLI could not be run here and the adapter is built on its source and docs only. */
  verifiedLive: boolean;
}

/** How a CLI adapter that runs one process per run starts it. */
export interface CliProcessLaunchDefinition<O extends CliAdapterOptions> {
  plan(ctx: LaunchContext, options: ResolvedCliOptions<O>): SpawnPlan | Promise<SpawnPlan>;
  translator: ProcessLaunch['translator'];
  controller?: ProcessLaunch['controller'];
}

/** How a CLI adapter that drives its program through a session (a private server) opens it. */
export interface CliSessionLaunchDefinition<O extends CliAdapterOptions> {
  open(ctx: SessionContext, options: ResolvedCliOptions<O>): Promise<AgentSession>;
}

/** Everything that tells one CLI adapter from another; {@link defineCliAdapter} adds the rest. */
export type CliAdapterDefinition<O extends CliAdapterOptions = CliAdapterOptions> = {
  id: string;
  displayName: string;
  /** What it can do, over the CLI defaults of {@link cliCapabilities} (applied by {@link defineCliAdapter}). */
  capabilities: CliCapabilities;
  program: CliProgramFacts;
  /** The pricing key used when the agent reports tokens without USD. */
  costModel?: string;
  /** Environment variable names whose values are secrets. */
  secretEnv: readonly string[];
  /** Where the agent keeps its sessions, read from the environment when the factory is called. */
  sessionDir?: (env: AdapterEnv) => string;
  /** What it reads from the repository beyond the common set (`Adapter.readsFromRepository`): a new agent says. */
  readsFromRepository: readonly string[];
  /** The Action's inputs for its keys (`Adapter.keyInputs`). */
  keyInputs?: Readonly<Record<string, string>>;
  /** Which files make up one session (`Adapter.sessionFiles`). */
  sessionFiles?: SessionFileDeclaration;
  /** Its mode that can ask for approval (`Adapter.approvingMode`). */
  approvingMode?: string;
  detectAuth?: (env: AdapterEnv) => AuthStatus;
  /** Whether it can work with only the run's tools (`Adapter.callerTools`). */
  callerTools?: 'native' | 'mcp';
  /** Its own tools for the policy's `shell`, `write_file`, `read_file` (`Adapter.toolNames`). */
  toolNames?: NativeToolNames;
} & (CliProcessLaunchDefinition<O> | CliSessionLaunchDefinition<O>);

/** `npm install -g <package>[@<version>]`, as an install method. */
export function npmInstallMethod(npmPackage: string, extra: { version?: string; notes?: string } = {}): InstallMethod {
  const spec = extra.version ? `${npmPackage}@${extra.version}` : npmPackage;
  return { type: 'npm', command: `npm install -g ${spec}`, ...(extra.notes ? { notes: extra.notes } : {}) };
}

/** The adapter's `program`, for the executable `command`. */
export function cliProgramInfo(facts: CliProgramFacts, command: string): ProgramInfo {
  const versionArgs =
    typeof facts.versionArgs === 'function' ? facts.versionArgs(command) : (facts.versionArgs ?? ['--version']);
  const npm = facts.npmPackage ? [npmInstallMethod(facts.npmPackage, facts.npmInstall)] : [];
  return {
    command,
    versionArgs,
    minVersion: facts.minVersion,
    install: [...npm, ...(facts.install ?? [])],
    ...(facts.npmPackage ? { npmPackage: facts.npmPackage } : {}),
    ...(facts.testedVersion ? { testedVersion: facts.testedVersion } : {}),
    ...(facts.npmOverrides ? { npmOverrides: facts.npmOverrides } : {}),
    verifiedLive: facts.verifiedLive,
  };
}

/**
 * Builds a CLI adapter's factory from what is particular to it: its identity, capabilities, program
 * facts, secrets, session directory, auth check, and its plan and translator (or its session). The
 * factory applies the `command` default, derives the npm install entry and fills in the rest of the
 * {@link Adapter} shape, so each adapter file holds only what differs.
 */
export function defineCliAdapter<O extends CliAdapterOptions = CliAdapterOptions>(
  definition: CliAdapterDefinition<O>,
): (options?: O) => Adapter {
  // Every CLI adapter's options are optional (all its factories are called with none), hence `{}`.
  return (options = {} as O) => {
    const resolved: ResolvedCliOptions<O> = { ...options, command: options.command ?? definition.program.command };
    return {
      specificationVersion: ADAPTER_SPECIFICATION_VERSION,
      id: definition.id,
      displayName: definition.displayName,
      capabilities: cliCapabilities(definition.capabilities),
      program: cliProgramInfo(definition.program, resolved.command),
      costModel: definition.costModel,
      secretEnv: [...definition.secretEnv],
      ...(definition.sessionDir ? { sessionDir: definition.sessionDir(process.env) } : {}),
      readsFromRepository: [...definition.readsFromRepository],
      ...(definition.keyInputs ? { keyInputs: definition.keyInputs } : {}),
      ...(definition.sessionFiles ? { sessionFiles: definition.sessionFiles } : {}),
      ...(definition.approvingMode ? { approvingMode: definition.approvingMode } : {}),
      ...(definition.detectAuth ? { detectAuth: definition.detectAuth } : {}),
      ...(definition.callerTools ? { callerTools: definition.callerTools } : {}),
      ...(definition.toolNames ? { toolNames: definition.toolNames } : {}),
      launch: launchOf(definition, resolved),
    };
  };
}

function launchOf<O extends CliAdapterOptions>(
  definition: CliAdapterDefinition<O>,
  resolved: ResolvedCliOptions<O>,
): Adapter['launch'] {
  if ('open' in definition) return { kind: 'session', open: (ctx) => definition.open(ctx, resolved) };
  return {
    kind: 'process',
    plan: (ctx) => definition.plan(ctx, resolved),
    translator: definition.translator,
    ...(definition.controller ? { controller: definition.controller } : {}),
  };
}
