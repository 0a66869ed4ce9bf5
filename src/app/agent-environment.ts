import { isNeverAgentEnv } from '../core/env/agent-environment.ts';

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?|DSN|_AUTH)$/i;

/**
 * The host side of the agents' environment: the app's environment without its own credentials
 * (the app's key, webhook secret, database, GitHub's tokens), and the names of the variables whose
 * values are secret (redacted from everything shown on GitHub). This is not what an agent sees:
 * each run builds the agent's environment from the allowlist of core/env `agentEnvironment` (its
 * adapter's key and vendor variables, the base list, `AGENT_MUX_AGENT_ENV`), see run-worker.
 */
export function agentEnvironment(env: Record<string, string | undefined>): {
  env: Record<string, string | undefined>;
  secretEnv: string[];
} {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !isNeverAgentEnv(name)));
  const secretEnv = Object.keys(kept).filter((name) => SECRET_NAME.test(name) && (kept[name] ?? '').length >= 8);
  return { env: kept, secretEnv };
}
