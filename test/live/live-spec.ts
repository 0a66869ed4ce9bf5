import type { Adapter } from '../../src/core/adapter/index.ts';
import type { PermissionPolicy } from '../../src/core/tools/permission-policy.ts';
import type { ShellCall } from './fake-model/script.ts';

/**
 * How one CLI is recorded and checked live against the fake model server
 * (test/live/fake-model-server.ts). One file per adapter: test/live/specs/<adapter>.live.ts,
 * exporting `spec: LiveSpec`. `npm run record` and `npm run test:live` read them all.
 */

/** The scripted cases every CLI is recorded on (the list). */
export type LiveCaseName = 'plain' | 'tool' | 'denied' | 'resume' | 'auth-401' | 'rate-429';

/** Which provider API the CLI talks to; the fake server speaks all of them on one port. */
export type ProviderApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

export interface LiveCase {
  prompt: string;
  /** The run's policy for this case (the `denied` case denies the shell tool by its native name). */
  policy?: PermissionPolicy;
  /** What the fake model's shell call runs in the tool cases (default `echo agent-mux-live`). */
  shell?: ShellCall;
}

export interface LiveSetupContext {
  /** Base URL of the fake model server, e.g. http://127.0.0.1:43123 (no trailing slash, no /v1). */
  baseUrl: string;
  /** A fresh HOME for the CLI (its config and session files go here). */
  home: string;
  /** A fresh workspace (the run's cwd) with a README.md in it. */
  workspace: string;
  /** The installed CLI's executable. */
  bin: string;
  case: LiveCaseName;
}

export interface LiveSpec {
  /** The adapter id (`claude`, `codex`, …). */
  adapter: string;
  /** Builds the adapter exactly as users get it. */
  create(): Adapter;
  /** The npm package and the pinned version recorded. */
  npmPackage: string;
  version: string;
  /** The executable's name in the package's `bin`. */
  binName: string;
  /**
   * Where the CLI is not an npm package (hermes-agent is a Python package): finds the installed
   * executable instead of `npm install` (test/live/cli-cache.ts), or throws saying how to install it.
   */
  locate?(): string;
  /**
   * Why the CLI cannot run on this machine, where it cannot be installed from the registries CI
   * reaches (hermes-agent needs its source, which only a session can fetch): the live check of its
   * recordings is then skipped with this reason, never failed. Undefined when it can run.
   */
  unavailable?(): string | undefined;
  /** Packages whose install scripts must run (npm 11 blocks them by default), e.g. the CLI itself. */
  allowScripts?: readonly string[];
  /** Per-case time limit in ms (default 120 000). */
  timeoutMs?: number;
  provider: ProviderApi;
  /**
   * Why this CLI's output is not the same from one run to the next, where it is not (values that vary
   * with the run: then the live check compares the sequence of event types and the end reason only).
   */
  variesBetweenRuns?: string;
  /** The cases this CLI is recorded on, with a reason for each case it skips. */
  cases: Partial<Record<LiveCaseName, LiveCase | { skip: string }>>;
  /**
   * Points the CLI at the fake server: returns the environment to add (dummy key, base URL) and
   * may write config files under `home`. Must not touch the real HOME.
   */
  setup(ctx: LiveSetupContext): Promise<{ env: Record<string, string> }>;
  /** For `resume`: the request of the second turn given the first turn's session id. */
  resumeRequest?(sessionId: string): { prompt: string; resumeSessionId: string };
}

/** The npm package and the version an adapter pins (its `program.npmPackage` and `program.testedVersion`). */
export function pinnedPackage(adapter: Adapter): Pick<LiveSpec, 'npmPackage' | 'version'> {
  const { npmPackage, testedVersion } = adapter.program ?? {};
  if (!npmPackage || !testedVersion) throw new Error(`${adapter.id} pins no npm package and version`);
  return { npmPackage, version: testedVersion };
}
