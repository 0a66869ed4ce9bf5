/** Where an agent runs: what decides where its session store is. */
export interface SessionLocation {
  /** The agent's HOME. */
  home: string;
  /** The agent's environment (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, … move the store). */
  env: Readonly<Record<string, string | undefined>>;
  /** The agent's working directory (Claude and Gemini keep sessions per project). */
  cwd: string;
}

/** The files of one session: paths relative to `root`, the agent's session store. */
export interface SessionFileSet {
  root: string;
  files: readonly string[];
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
   * Where a file of a session saved while the agent ran in the directory `from` goes for an agent
   * that runs in `to.cwd`: its path relative to `root`, or undefined when the session cannot move
   * to another directory (the run then starts a new session). Absent: the agent's session files do
   * not depend on its working directory.
   */
  relocate?(path: string, from: string, to: SessionLocation): string | undefined;
}
