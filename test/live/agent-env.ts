/**
 * This process's environment without credentials, with a fresh HOME: what a runner gives the agent
 * (the live GitHub-flow tests run the agent with it, plus the provider's variables in `extra`).
 */
export function agentEnv(home: string, extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/KEY|TOKEN|SECRET|PASSWORD|BASE_URL|^GH_|^GITHUB_|^VITEST|^NODE_ENV$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, CI: '1', NO_COLOR: '1', ...extra };
}
