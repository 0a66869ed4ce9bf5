/**
 * How an agent's process is fenced off (bubblewrap). Both kinds put the agent in its own PID
 * namespace (`--unshare-pid --die-with-parent`): when the agent's program ends, or agent-mux dies,
 * every process it started ends too, whatever `setsid`, double forks or `detached` children did; and
 * the agent sees only its own processes in a fresh `/proc`.
 *
 * - `processes`: the PID namespace over the host's file system (the Action's runner, one job per
 *   machine), with the `readOnly` paths made read-only, the `hidden` ones replaced by empty
 *   directories and, with `privateTmp`, a `/tmp` of its own: the runner's `_actions` (agent-mux's
 *   own post step), its tool cache, its file-command files and the runner's own directory.
 * - `filesystem`: the PID namespace and a root built from read-only binds of the system (`/usr`,
 *   `/bin`, `/lib*`, `/sbin`, `/etc`, `/opt`), the `readOnly` paths, the workspace and `home`
 *   read-write, a fresh `/tmp`, `/dev` and `/proc`. Nothing else of the host exists in it (the
 *   app's directory, its data directory, other runs' workspaces). In a user namespace, with
 *   `network` deciding what it reaches.
 */
export interface FenceOptions {
  kind: 'processes' | 'filesystem';
  /** The bwrap program. Default: `bwrap` on the host's PATH. */
  bwrap?: string;
  /** `filesystem`: the agent's HOME (created when missing), read-write. Default: the host's HOME is not there. */
  home?: string;
  /**
   * `filesystem`: more paths shown read-only at the same place (the agent CLIs' install
   * directories). `processes`: paths of the host made read-only (missing ones are skipped).
   */
  readOnly?: readonly string[];
  /** `processes`: paths of the host replaced by an empty directory (missing ones are skipped). */
  hidden?: readonly string[];
  /** `processes`: a fresh `/tmp` (the run's own temp files the plan names are shown in it). */
  privateTmp?: boolean;
  /** The size of the fence's own `/tmp` (memory), in bytes. Default 1 GiB. */
  tmpBytes?: number;
  /** More paths shown read-write at the same place (`processes`: inside a hidden one or the private /tmp). */
  readWrite?: readonly string[];
  /**
   * `filesystem`: what the agent's network is. `host` (default): the host's, loopback included.
   * `own`: a network namespace of its own with egress through slirp4netns but not the host's
   * loopback (`--disable-host-loopback`); of the host's loopback only `loopbackPorts` (and the
   * run's MCP server and loopback endpoints named in the agent's environment) are relayed in
   * (`openFenceNetwork`). `none`: loopback only, nothing relayed (also what `own` becomes where no
   * `FenceNetwork` is given to `fenceCommand`: fail closed).
   */
  network?: 'host' | 'own' | 'none';
  /** `network: 'own'`: host loopback ports the agent may reach besides those found in its plan. */
  loopbackPorts?: readonly number[];
  /** `network: 'own'`: the slirp4netns program. Default: `slirp4netns` on PATH. */
  slirp4netns?: string;
}
