import type { Probot } from 'probot';
import { describeStartFailure, isPermanentStartFailure } from './describe-start-failure.ts';
import { retryStartStep } from './retry-start-step.ts';
import type { StartUpStep } from './start-up-step.ts';

/** Reads the app's slug (`GET /app`) as the start-up step `GET /app`: retried, a failure described with the host. */
export function readAppSlug(
  app: Pick<Probot, 'auth'>,
  env: Record<string, string | undefined>,
  step: StartUpStep,
): Promise<string> {
  return retryStartStep(() => requestAppSlug(app), {
    ...step('GET /app', (error) => describeStartFailure(error, hostOf(error) ?? githubHostOf(env))),
    permanent: isPermanentStartFailure,
  });
}

/** Probot's default `GHE_HOST` handling, for messages when no Octokit could be made. */
function githubHostOf(env: Record<string, string | undefined>): string {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL || 'https'}://${env.GHE_HOST}` : 'https://api.github.com';
}

/** The API base URL a failed Octokit request went to (`RequestError.request.url`). */
function hostOf(error: unknown): string | undefined {
  const url = (error as { request?: { url?: unknown } } | null)?.request?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

async function requestAppSlug(app: Pick<Probot, 'auth'>): Promise<string> {
  const octokit = await app.auth();
  // No retries inside Octokit (its retry plugin would spend ~15 s on a host that does not answer):
  // the start-up loop retries with its own backoff and logs each failure.
  const { data } = await octokit.request('GET /app', { request: { retries: 0 } });
  const slug = (data as { slug?: unknown } | null)?.slug;
  if (typeof slug !== 'string' || slug === '') throw new Error('GET /app did not return the app slug');
  return slug;
}
