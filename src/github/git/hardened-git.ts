/**
 * The configuration agent-mux's own git runs with, whatever the repository's `.git/config` holds
 * (an agent may have written it). Command-line settings win over every configuration file, so
 * each key git would execute, or that sends requests elsewhere, is pinned here. Keys that cannot
 * be pinned this way (`url.<base>.insteadOf`, `include.path`, `filter.<driver>.*`, remote
 * commands) are removed from `.git/config` by `sanitizeGitConfig` before git runs.
 */
export function hardenedConfigArgs(
  options: { allowFileProtocol?: boolean; allowHttpProtocol?: boolean } = {},
): string[] {
  const settings = [
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.pager=cat',
    'core.editor=false',
    'core.askPass=',
    'core.sshCommand=',
    'core.gitProxy=',
    'core.attributesFile=/dev/null',
    'core.alternateRefsCommand=',
    'credential.helper=',
    'diff.external=',
    'sequence.editor=false',
    'gpg.program=false',
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'gc.auto=0',
    'maintenance.auto=false',
    'submodule.recurse=false',
    'fetch.recurseSubmodules=false',
    'push.recurseSubmodules=no',
    // Only HTTPS leaves the machine; local repositories and plain HTTP to this machine only when
    // the caller says so for a URL it computed (`protocolsFor`). ssh, git://, ext:: are refused.
    'protocol.allow=never',
    'protocol.https.allow=always',
    `protocol.file.allow=${options.allowFileProtocol ? 'always' : 'never'}`,
    `protocol.http.allow=${options.allowHttpProtocol ? 'always' : 'never'}`,
  ];
  return settings.flatMap((setting) => ['-c', setting]);
}

/**
 * Environment of agent-mux's git: no system or global configuration (`GIT_CONFIG_NOSYSTEM`,
 * `GIT_CONFIG_GLOBAL=/dev/null`), no prompt and no askpass program, messages in English, and the
 * inherited variables that would point git at another repository or configuration cleared.
 */
export function hardenedEnv(): Record<string, string> {
  return {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_PARAMETERS: '',
    GIT_CONFIG_COUNT: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GCM_INTERACTIVE: 'never',
    GIT_PAGER: 'cat',
    GIT_EXTERNAL_DIFF: '',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  };
}

/** True for a local path or a `file://` URL (a remote git reaches through the `file` protocol). */
export function isLocalRemote(url: string): boolean {
  if (/^file:\/\//i.test(url)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[a-z][a-z0-9+.-]*::/i.test(url)) return false;
  // scp-like `host:path` (ssh) has a colon before any slash.
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  return !(colon > 0 && (slash === -1 || colon < slash));
}

/**
 * The protocols beyond HTTPS a URL agent-mux computed itself needs: `file` for a local path, plain
 * `http` for a server on the loopback interface (a test stand-in for GitHub). Never derive `url`
 * from anything the agent could have written.
 */
export function protocolsFor(url: string): { allowFileProtocol: boolean; allowHttpProtocol: boolean } {
  return { allowFileProtocol: isLocalRemote(url), allowHttpProtocol: isLoopbackHttp(url) };
}

function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
