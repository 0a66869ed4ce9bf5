import type { AgentEvent, DraftOf, ErrorCode, EventDraft } from '../events/index.ts';
import type { ApprovalChannel } from '../tools/approval-channel.ts';
import type { PermissionPolicy } from '../tools/permission-policy.ts';
import type { NativeToolNames } from '../tools/policy-for-agent.ts';
import type { ToolHost } from '../tools/tool-host.ts';
import type { Capabilities } from './capabilities.ts';
import type { SessionFileDeclaration } from './session-files.ts';

/** Bumped when the adapter interface changes incompatibly. */
export const ADAPTER_SPECIFICATION_VERSION = 'v1' as const;

export type ThinkingEffort = 'low' | 'medium' | 'high' | 'max';
/** Why the core asks an agent to stop; `completed`: it already said it is done but has not gone. */
export type ShutdownReason = 'cancelled' | 'timeout' | 'inactivity' | 'lease_expired' | 'budget_exceeded' | 'completed';

/** What the caller asks of one run, independent of the agent. */
export interface RunRequest {
  prompt: string;
  /** Working directory of the agent: the run's workspace. */
  cwd: string;
  model?: string;
  systemPrompt?: string;
  maxTurns?: number;
  /** Continue this session (adapters whose capabilities say `resume`). */
  resumeSessionId?: string;
  /** With `resumeSessionId`: fork it instead of continuing it. */
  fork?: boolean;
  thinkingEffort?: ThinkingEffort;
  /** Extra environment for the agent, on top of the adapter's own. */
  env?: Record<string, string>;
  /** Files handed to the agent with the prompt (paths on this host), for adapters that take them. */
  files?: readonly RunFile[];
  /**
   * The agent works on another host's checkout (a remote run, docs/remote.md): its own file and
   * shell tools are off and the run's MCP tools, relayed to the caller, are its only ones. Only for
   * adapters whose `callerTools` is `mcp`.
   */
  callerToolsOnly?: boolean;
}

export interface RunFile {
  name: string;
  path: string;
  mimeType?: string;
}

/** The values templates may refer to (`{{runId}}`, …), plus the request. */
export interface LaunchContext {
  request: RunRequest;
  runId: string;
  taskId: string;
  leaseToken: string;
  /** The lease epoch: what ca-http-v1 and the Process protocol call the fencing token (`{{fencingToken}}`). */
  leaseEpoch: number;
  /** URL of the tool host's MCP server, or empty when none runs. */
  mcpUrl: string;
  /** True when the run's MCP server offers the `approval_prompt` tool (the run has an approval channel). */
  mcpApprovalPrompt?: boolean;
  /** Bearer token the MCP server requires (`Authorization: Bearer …`), or empty. A secret: redacted everywhere. */
  mcpToken: string;
  workspacePath: string;
  /** The environment templates expand `${NAME}` from. */
  env: Readonly<Record<string, string | undefined>>;
  debug: boolean;
  /** The clock translators are given (`TranslatorInit.clock`); default `Date.now`. */
  clock?: () => number;
  /**
   * The run's permission policy. Adapters map it onto the CLI's own mechanism (allow/deny flags for
   * the CLI's native tool names, e.g. `{ tool: 'Bash', decision: 'deny' }`), and route `ask` through
   * the run's MCP `approval_prompt` tool where the CLI can ask at run time.
   */
  policy?: PermissionPolicy;
}

/** How to start the agent's program. */
export interface SpawnPlan {
  command: string;
  args: readonly string[];
  /** Added to the inherited environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Written to stdin after start. With `closeStdin` unset, stdin is closed after it. */
  stdin?: string;
  /** Keep stdin open for later writes (interactive protocols). Default false. */
  keepStdinOpen?: boolean;
  /**
   * The program takes user messages on stdin while it runs (Claude Code's `--input-format
   * stream-json`): `RunHandle.steer` writes each as `message(text)`, one JSON line. The plan keeps
   * stdin open; the core closes it at the run's terminal record once every message written has
   * been taken (the translator lists what the program took in `TranslatorState.takenInputs`), so
   * the program ends by itself. A terminal record while a message waits does not end the run:
   * the program answers it in another turn.
   */
  input?: { message(text: string): unknown };
  /** Run under a pseudo-terminal (node-pty). Output then has VT sequences stripped. */
  pty?: boolean;
  /**
   * Expand `{{runId}}`, `${NAME}`, … in `args` and `env` (the user's templates of a configured
   * adapter). Built-in adapters leave it off: their arguments (prompts, paths) are literal text.
   */
  expandTemplates?: boolean;
  /** `json-lines`: each stdout line is a JSON record. `text`: each line goes to the translator as text. */
  protocol: 'json-lines' | 'text';
  /**
   * The adapter's own limit on the program's run time (a job's `max_runtime`): when it passes,
   * the run is stopped like a total timeout and ends `timeout`. The run's own timeout still applies.
   */
  maxRuntimeMs?: number;
  /**
   * What the run's user should know about how the policy was applied (an agent made read-only
   * because it cannot ask at run time): the core emits each as a `notice` event when the program starts.
   */
  notices?: readonly Omit<DraftOf<'notice'>, 'type'>[];
  /**
   * A command that tells whether the agent's own sandbox works (`codex sandbox -- true`): run
   * before the agent, with its environment and inside the same fence; when it fails the run gets a
   * `sandbox_unavailable` notice with what it printed, `what` failed and the `fix`.
   */
  sandboxProbe?: { command?: string; args: readonly string[]; what: string; fix: string };
  /** Called once the program has exited and the run is over (remove temporary config files, …). */
  cleanup?(): void | Promise<void>;
}

/** One record the program printed, as the translator sees it. */
export type NativeRecord = { kind: 'json'; value: unknown } | { kind: 'text'; line: string };

/** How the program's run ended, as far as its own records told. */
export interface Outcome {
  status: 'completed' | 'failed';
  message?: string;
  output?: unknown;
}

/** State every translator keeps; adapters extend it with their own fields. */
export interface TranslatorState {
  debug: boolean;
  sessionId?: string;
  outcome?: Outcome;
  /**
   * Set with `outcome` when the record just translated ends the run: the agent said it is done
   * (the Process protocol's `complete` / `failed`, a CLI's result record that closes its only turn). The core
   * then gives the program `terminalGraceMs` to exit by itself, stops what is left (graceful stop,
   * then the process group), and ends the run with `outcome`. A program that exits by itself
   * within the grace ends the run exactly as it would without the flag.
   */
  terminal?: boolean;
  /**
   * The user messages the program says it took since the core last looked (a CLI that echoes them,
   * such as Claude Code's `--replay-user-messages`), by their text: the core matches them with what
   * `RunHandle.steer` wrote (see `SpawnPlan.input`) and empties the list.
   */
  takenInputs?: string[];
}

export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
}

/**
 * Turns native records into normalized event drafts. Pure: no I/O, and the time only from
 * `init`'s clock. An unknown record gives a `debug` draft when `state.debug`, else nothing. A
 * translator need not guard itself: whoever calls `translate` (the core's `RecordPipeline`) turns a
 * throw into one recoverable `internal` error and goes on.
 */
/** What a translator starts from. */
export interface TranslatorInit {
  debug: boolean;
  request?: RunRequest;
  /**
   * Milliseconds since the epoch, now. A translator reads the time only through this (tool
   * durations, generated ids), so that replaying a stream with a fixed clock gives the same events.
   * Default `Date.now`.
   */
  clock?: () => number;
}

export interface Translator<S extends TranslatorState = TranslatorState> {
  init(ctx: TranslatorInit): S;
  translate(record: NativeRecord, state: S): EventDraft[];
  /** A line on stderr; default: a `log` event. */
  stderr?(line: string, state: S): EventDraft[];
  /** Called once when the program has exited, before the core decides the run's end. */
  finish?(exit: ExitInfo, state: S): EventDraft[];
}

/** What a controller may do to the running program. */
export interface RunIO {
  /** Writes one JSON line (or a raw string line) to the program's stdin. Rejects when stdin is closed. */
  writeLine(value: unknown): Promise<void>;
  /** Closes the program's stdin (a protocol whose program ends when its input does). Idempotent; absent where there is no stdin (a remote). */
  closeInput?(): void;
  /** Emits an event as if the program had printed it. */
  emit(draft: EventDraft): void;
  /**
   * Ends the run as failed with this error (reported once, not recoverable): the controller found the
   * agent unusable, e.g. it never answered the protocol's handshake. The core then stops the program.
   */
  fail(error: { code: ErrorCode; message: string }): void;
  readonly tools?: ToolHost;
  readonly approvals?: ApprovalChannel;
  readonly signal: AbortSignal;
}

/** Optional two-way behaviour on top of a translator: answering tool calls, graceful shutdown. */
export interface ProcessController {
  onEvent?(event: AgentEvent): void;
  /**
   * Sees each decoded stdout record after the translator did: for two-way protocols whose requests and
   * responses the controller itself answers or awaits (ACP's JSON-RPC). Must not throw.
   */
  onRecord?(record: NativeRecord): void;
  /** Ask the program to stop on its own. Return true if asked; the core then waits the grace window. */
  requestStop?(reason: ShutdownReason): boolean;
  /** The run's remaining budget changed. */
  onBudget?(remaining: { tokens?: number; usd?: number }): void;
  /** Resolves when work the controller started (tool calls in flight) is done; awaited before the run ends. */
  settle?(): Promise<void>;
  /**
   * A user's message for the running agent (`RunHandle.steer`), for protocols that take one in
   * their own way (ACP: a prompt sent when the current turn ends). The controller emits the
   * `steered` notice where it gives the message to the agent (see `steeredNotice`).
   */
  steer?(message: import('../run/agent-input.ts').SteerMessage): import('../run/agent-input.ts').SteerOutcome;
  /**
   * True while a turn the controller started for a steered message runs: a terminal record then
   * does not end the run (the turn it answers ends it).
   */
  holdsTurn?(): boolean;
}

export interface ProcessLaunch<S extends TranslatorState = TranslatorState> {
  kind: 'process';
  plan(ctx: LaunchContext): SpawnPlan | Promise<SpawnPlan>;
  translator: Translator<S>;
  controller?(io: RunIO, ctx: LaunchContext): ProcessController;
}

/** An agent that is not a local program: in-process or remote. The session emits through `ctx.emit`. */
export interface SessionContext extends LaunchContext {
  emit(draft: EventDraft): void;
  readonly signal: AbortSignal;
  readonly tools?: ToolHost;
  readonly approvals?: ApprovalChannel;
  /**
   * The agent said it is done (a terminal event such as ca-http-v1's `complete` / `failed`). The
   * core gives the session `terminalGraceMs` to settle `done` by itself, then aborts `signal`;
   * `done` must then settle soon with this outcome (the core falls back to it if it does not).
   */
  terminalReached?(outcome: Outcome): void;
}

/** How a session ended; `reason` overrides the end a plain status would give (a crashed remote). */
export interface SessionOutcome extends Outcome {
  sessionId?: string;
  reason?: 'crashed' | 'timeout';
}

export interface AgentSession {
  /** Settles when the agent is done; rejects only on transport failure. */
  readonly done: Promise<SessionOutcome>;
  /** Asks the agent to stop; resolves when it has. */
  stop(reason: ShutdownReason): Promise<void>;
  /** The run's remaining budget changed (a remote agent is told with `budget_update`). */
  onBudget?(remaining: { tokens?: number; usd?: number }): void;
}

export interface SessionLaunch {
  kind: 'session';
  open(ctx: SessionContext): Promise<AgentSession>;
}

export interface InstallMethod {
  type: 'npm' | 'pip' | 'brew' | 'curl' | 'gh-extension' | 'nix' | 'builtin';
  command: string;
  platforms?: readonly string[];
  notes?: string;
}

/** The program an adapter runs, for detection and installation. */
export interface ProgramInfo {
  command: string;
  versionArgs: readonly string[];
  minVersion: string;
  install: readonly InstallMethod[];
  /** The npm package and the version tested with (recorded live), when the CLI is on npm. */
  npmPackage?: string;
  testedVersion?: string;
  /**
   * npm `overrides` for installing the program (the install's root `package.json`): pins a
   * dependency at the version tested, e.g. codex-acp's `@openai/codex`.
   */
  npmOverrides?: Readonly<Record<string, string>>;
  /** False when the CLI could not be run here and the adapter is built on its source and docs only. */
  verifiedLive: boolean;
}

/** What a read-only, local look (env vars, credential files; no network, under 100 ms) found. */
export interface AuthStatus {
  status: 'authenticated' | 'unauthenticated' | 'unknown';
  /** How: `api_key`, `oauth`, `browser_login`, `config_file`, … */
  method?: string;
  /** Where it was found (an env var name or a file path, never the secret itself). */
  details?: readonly string[];
}

/** One agent behind the common interface. */
export interface Adapter {
  readonly specificationVersion: typeof ADAPTER_SPECIFICATION_VERSION;
  readonly id: string;
  readonly displayName: string;
  readonly capabilities: Capabilities;
  readonly program?: ProgramInfo;
  /** The pricing key used when the agent reports tokens without USD. */
  readonly costModel?: string;
  /** Environment variable names whose values are secrets (redacted everywhere). */
  readonly secretEnv?: readonly string[];
  /** Where the agent keeps its sessions, when it does. */
  readonly sessionDir?: string;
  /**
   * Which files make up one of its sessions, to carry a conversation to a fresh machine (checked
   * against what the real CLI writes). Absent: a follow-up turn starts a new session.
   */
  readonly sessionFiles?: SessionFileDeclaration;
  /**
   * What the agent's CLI reads from the repository as instructions or configuration beyond the
   * common set every agent gets (`AGENTS.md`, `.mcp.json`, … : `agentConfigPaths`), checked against
   * the real CLI: a front end resets these to the base branch before a pull request's agent runs.
   * `[]`: the common set alone. Absent: unknown, so every built-in agent's entries are reset.
   * Entry syntax: a name ending in `/` is a folder, one starting with `/` is anchored at the top of
   * the repository, any other matches at any depth; letter case is ignored.
   */
  readonly readsFromRepository?: readonly string[];
  /**
   * The GitHub Action's inputs that carry this agent's keys: input name (`anthropic-api-key`) →
   * the variable the agent reads (`ANTHROPIC_API_KEY`, one of `secretEnv`). The Action declares the
   * union of every built-in agent's (a test holds `action.yml` to it).
   */
  readonly keyInputs?: Readonly<Record<string, string>>;
  /**
   * The id of this agent's mode that can ask someone for approval (its ACP mode) where this one
   * cannot: what a front end whose runs nobody watches (GitHub) runs for the agent's bare name.
   */
  readonly approvingMode?: string;
  /** Checks for credentials: read-only, local, no network, under 100 ms. */
  detectAuth?(env: Readonly<Record<string, string | undefined>>): AuthStatus;
  /**
   * How the agent can work with only the run's tools (a remote run whose tools are the caller's,
   * docs/remote.md): `native`, it calls the run's tool host itself (the Process protocol, demo);
   * `mcp`, its own file and shell tools can be turned off and the run's MCP tools used instead
   * (`RunRequest.callerToolsOnly`). Absent: it works with its own tools on the host it runs on, so
   * it cannot serve a run on another host's checkout.
   */
  readonly callerTools?: 'native' | 'mcp';
  /**
   * Its own tools that do what the policy's `shell`, `write_file` and `read_file` say, so a rule on
   * those names holds for them (`policyForAgent`). Absent: rules match its tool names as they are.
   */
  readonly toolNames?: NativeToolNames;
  readonly launch: ProcessLaunch | SessionLaunch;
}

export type AdapterFactory<O = void> = (options: O) => Adapter;
