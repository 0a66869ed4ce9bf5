import type { FenceOptions } from '../sandbox/index.ts';

/** Where an agent runs: what decides where its session store is. */
export interface SessionLocation {
  /** The agent's HOME. */
  home: string;
  /** The agent's environment (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, … move the store). */
  env: Readonly<Record<string, string | undefined>>;
  /** The agent's working directory (Claude and Gemini keep sessions per project). */
  cwd: string;
  /**
   * The agent's executable as the run starts it (`Adapter.program.command`: a name looked up on
   * `env.PATH`, or a path), for declarations that carry a session with the agent's own commands.
   * Default: the program's usual name.
   */
  command?: string;
  /**
   * The run's fence: the agent's own commands a declaration runs (an export, an import) go through
   * it as the agent does, since the agent may have changed what they read (its config, its plugins).
   */
  fence?: FenceOptions;
}

/** The files of one session: paths relative to `root`, the agent's session store. */
export interface SessionFileSet {
  root: string;
  files: readonly string[];
  /**
   * A directory agent-mux made and the agent cannot replace (its HOME): the store's path below it
   * must not pass through a link. Absent: only the store itself is checked.
   */
  anchor?: string;
}

/**
 * Where one agent keeps its sessions, and which files make up one session id: what has to be
 * carried to a fresh machine for the agent to resume the session there. Checked against what the
 * real CLI writes (docs/conversations.md).
 */
export interface SessionFileDeclaration {
  /** The agent's session store in this location; restored files go under it. */
  root(location: SessionLocation): string;
  /** The session's files, relative to `root`; empty when the session is not on disk. */
  find(location: SessionLocation, sessionId: string): Promise<string[]>;
  /**
   * Whether `path` (relative to `root`) can be one of session `sessionId`'s files, as `find` would
   * name them: what a restore may write. Default (`sessionPath`): the id is a directory of the
   * path, or the file is `<id>.jsonl`, `<id>.json`, `…-<id>.jsonl` or `…_<id>.jsonl`.
   */
  belongs?(path: string, sessionId: string): boolean;
  /**
   * Where a file of a session saved while the agent ran in the directory `from` goes for an agent
   * that runs in `to.cwd`: its path relative to `root`, or undefined when the session cannot move
   * to another directory (the run then starts a new session). Absent: the agent's session files do
   * not depend on its working directory.
   */
  relocate?(path: string, from: string, to: SessionLocation): string | undefined;
  /**
   * For an agent that keeps all its sessions in one store that cannot be copied file by file (one
   * SQLite database): writes session `sessionId` under `root` as the files `find` then finds, with
   * the agent's own export. Those files are a copy made for one save: removed once read. Throws
   * `SessionCommandError` when the export fails.
   */
  exportSession?(location: SessionLocation, sessionId: string): Promise<void>;
  /**
   * Hands the restored files (relative to `root`) to the agent with its own import, then removes
   * them. Throws `SessionCommandError` when the import fails.
   */
  importSession?(location: SessionLocation, files: readonly string[]): Promise<void>;
}
