/** One session file, by path relative to the agent's session store. */
export interface SessionSnapshotFile {
  path: string;
  content: Buffer;
}

/** The files of one session, read from disk and checked (size, secrets) before anything keeps them. */
export interface SessionSnapshot {
  files: readonly SessionSnapshotFile[];
  /** Sum of the files' sizes. */
  bytes: number;
}
