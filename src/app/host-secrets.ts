import { readFileSync } from 'node:fs';

/** PEM body lines are 64 characters: each is a secret of its own, so a part of the key is redacted too. */
const PEM_LINE = /^[A-Za-z0-9+/=]{40,}$/;

/**
 * The app's own secrets, which no agent is given but an agent that reached them (a file it should
 * not read, a link followed outside its fence) must still never post: the webhook secret, the
 * GitHub App's private key (whole, with `\n` as the app reads it, and each line of its body), the
 * OAuth client secret and the database URL's password. Every run's redactor gets them.
 */
export function hostSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.trim().length >= 8) secrets.add(value.trim());
  };
  add(env.WEBHOOK_SECRET);
  add(env.GITHUB_CLIENT_SECRET);
  const keys = [env.PRIVATE_KEY, readKeyFile(env.PRIVATE_KEY_PATH)];
  for (const key of keys) {
    if (!key) continue;
    const pem = key.replace(/\\n/g, '\n');
    add(pem);
    add(key);
    for (const line of pem.split('\n')) if (PEM_LINE.test(line.trim())) add(line);
  }
  add(databasePassword(env.DATABASE_URL));
  return [...secrets];
}

function readKeyFile(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
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
