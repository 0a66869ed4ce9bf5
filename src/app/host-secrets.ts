/**
 * The app's own secrets, which no agent is given but an agent that reached them (a file it should
 * not read, a link followed outside its fence) must still never post: the webhook secret, the
 * OAuth client secret and the database URL's password. Every run's redactor gets them. (The App's
 * private key needs no literal: the redactor's patterns take out any PEM private key block.)
 */
export function hostSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.trim().length >= 8) secrets.add(value.trim());
  };
  add(env.WEBHOOK_SECRET);
  add(env.GITHUB_CLIENT_SECRET);
  add(databasePassword(env.DATABASE_URL));
  return [...secrets];
}

function databasePassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}
