/** Variables of the app's own that an agent never sees (the app's key, the webhook secret, the database). */
const APP_ONLY = [
  /^PRIVATE_KEY(_PATH)?$/,
  /^WEBHOOK_SECRET$/,
  /^WEBHOOK_PROXY_URL$/,
  /^DATABASE_URL$/,
  /^GITHUB_CLIENT_SECRET$/,
  /^GITHUB_CLIENT_ID$/,
];
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$/i;

/**
 * The environment an agent runs with: the app's environment without the app's own credentials, and
 * the names of the variables whose values are secret (redacted from everything shown on GitHub).
 */
export function agentEnvironment(env: Record<string, string | undefined>): {
  env: Record<string, string | undefined>;
  secretEnv: string[];
} {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !APP_ONLY.some((re) => re.test(name))));
  const secretEnv = Object.keys(kept).filter((name) => SECRET_NAME.test(name) && (kept[name] ?? '').length >= 8);
  return { env: kept, secretEnv };
}
