/**
 * The environment an untrusted agent gets: built from an allowlist, never from the host's whole
 * environment. The host (a GitHub Actions step, the app's server) holds credentials the agent must
 * not see: the workflow's token, other agents' keys, the app's key, database and webhook secret.
 */

/** Variables every agent gets when the host has them: paths, locale, terminal, temp, proxy, CA. */
export const BASE_AGENT_ENV: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'LANG',
  'LANGUAGE',
  'TMPDIR',
  'TEMP',
  'TMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  // The runner's non-secret facts a CLI may look at (CI detection, OS, temp and tool cache).
  'CI',
  'GITHUB_ACTIONS',
  'RUNNER_OS',
  'RUNNER_ARCH',
  'RUNNER_TEMP',
  'RUNNER_TOOL_CACHE',
];

/** `LC_*` locale variables. */
const BASE_PATTERN = /^LC_[A-Z]+$/;

/**
 * Never given to an agent, whatever an adapter or a setting asks for: the host's GitHub
 * credentials and the runner's internals, the Action's inputs, the app's own credentials.
 */
const NEVER = [
  /^GITHUB_TOKEN$/,
  /^GH_TOKEN$/,
  /^GH_ENTERPRISE_TOKEN$/,
  /^GITHUB_ENTERPRISE_TOKEN$/,
  /^ACTIONS_/,
  /^INPUT_/,
  /^GITHUB_(ENV|PATH|OUTPUT|STATE|STEP_SUMMARY|EVENT_PATH)$/,
  /^PRIVATE_KEY(_PATH)?$/,
  /^WEBHOOK_SECRET$/,
  /^WEBHOOK_PROXY_URL$/,
  /^GITHUB_CLIENT_(ID|SECRET)$/,
  /^APP_ID$/,
  /^DATABASE_URL$/,
];

/**
 * Vendor prefixes that never form a family (a key named `GITHUB_…` must not bring every `GITHUB_…`
 * variable of the runner with it).
 */
const NO_FAMILY = new Set([
  'GITHUB',
  'GH',
  'ACTIONS',
  'RUNNER',
  'INPUT',
  'AGENT',
  'NPM',
  'PG',
  'DATABASE',
  'REDIS',
  'SENTRY',
  'WEBHOOK',
  'PRIVATE',
  'APP',
  'AWS',
  'AZURE',
  'NODE',
]);

/** Names that look secret: a family member with such a name comes only when the adapter names it. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASS|CREDENTIALS?|AUTH|DSN|COOKIE|HEADERS)$/i;

/** What the agent's environment is built from besides the base list. */
export interface AgentEnvironmentOptions {
  /** The adapter's secret variables (its keys): given when set. */
  secretEnv?: readonly string[];
  /** More names the operator allows (a setting, an Action input, the CLI's `--env`). */
  extra?: readonly string[];
}

/** True when a variable's name says its value is secret (`…_KEY`, `…_TOKEN`, `…_SECRET`, an access key id). */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name) || /ACCESS_KEY_ID$/i.test(name);
}

/** True when `name` may never reach an agent. */
export function isNeverAgentEnv(name: string): boolean {
  return NEVER.some((re) => re.test(name));
}

/** The first `_`-separated word of a key name (`ANTHROPIC_API_KEY` → `ANTHROPIC`), when it forms a family. */
function familyOf(name: string): string | undefined {
  const prefix = /^([A-Z][A-Z0-9]*)_/.exec(name)?.[1];
  return prefix && !NO_FAMILY.has(prefix) ? prefix : undefined;
}

/**
 * The agent's environment: the base list, its adapter's keys (`secretEnv`), the non-secret
 * variables of the same vendors (`ANTHROPIC_API_KEY` brings `ANTHROPIC_BASE_URL` and
 * `ANTHROPIC_MODEL`; `CLAUDE_CODE_OAUTH_TOKEN` brings `CLAUDE_CONFIG_DIR`; `CODEX_API_KEY` brings
 * `CODEX_HOME`), and the operator's extra names. Never the names of `isNeverAgentEnv`.
 */
export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: AgentEnvironmentOptions = {},
): Record<string, string> {
  const named = new Set([...BASE_AGENT_ENV, ...(options.secretEnv ?? []), ...(options.extra ?? [])]);
  const families = new Set(
    (options.secretEnv ?? []).map(familyOf).filter((family): family is string => family !== undefined),
  );
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isNeverAgentEnv(name)) continue;
    const family = familyOf(name);
    const inFamily = family !== undefined && families.has(family) && !SECRET_NAME.test(name);
    if (named.has(name) || BASE_PATTERN.test(name) || inFamily) kept[name] = value;
  }
  return kept;
}
