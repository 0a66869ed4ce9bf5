import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';

/** Octokit with GitHub's recommended retry and throttling behaviour. */
export const GitHubOctokit = Octokit.plugin(retry, throttling);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

export interface CreateOctokitOptions {
  token: string;
  /** Default `https://api.github.com`; the Action passes `GITHUB_API_URL`. */
  baseUrl?: string;
  userAgent?: string;
  /** How many times a rate-limited request is retried after GitHub's `retry-after`. Default 3. */
  rateLimitRetries?: number;
  /**
   * Scale of waits: GitHub's `retry-after` seconds are multiplied by this many ms, and writes are
   * spaced as GitHub recommends (1 s between writes, 3 s between notifying writes such as
   * comments) times `waitScale / 1000`. Default 1000; tests use a few ms.
   */
  waitScale?: number;
  /** Receives a line for every rate-limit wait. */
  log?: (message: string) => void;
}

/**
 * A REST client for GitHub: throttled writes (@octokit/plugin-throttling), retries of 5xx and
 * rate-limited responses (@octokit/plugin-retry), and the given token.
 */
export function createOctokit(options: CreateOctokitOptions): GitHubOctokit {
  const retries = options.rateLimitRetries ?? 3;
  const scale = options.waitScale ?? 1000;
  const log = options.log ?? (() => {});
  const spaced = (minTime: number) => new Bottleneck.Group({ maxConcurrent: 1, minTime: (minTime * scale) / 1000 });
  return new GitHubOctokit({
    auth: options.token,
    baseUrl: options.baseUrl ?? 'https://api.github.com',
    userAgent: options.userAgent ?? 'agent-mux',
    retry: { retryAfterBaseValue: scale },
    throttle: {
      retryAfterBaseValue: scale,
      fallbackSecondaryRateRetryAfter: 60,
      write: spaced(1000),
      notifications: spaced(3000),
      onRateLimit: (retryAfter, request, _octokit, retryCount) => {
        log(`rate limit hit on ${request.method} ${request.url}; retry ${retryCount + 1} after ${retryAfter} s`);
        return retryCount < retries;
      },
      onSecondaryRateLimit: (retryAfter, request, _octokit, retryCount) => {
        log(`secondary rate limit on ${request.method} ${request.url}; retry ${retryCount + 1} after ${retryAfter} s`);
        return retryCount < retries;
      },
    },
  });
}
