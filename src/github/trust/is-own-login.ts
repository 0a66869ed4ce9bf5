import type { GitHubUser } from '../github-api.ts';

/**
 * Whether a login is one of agent-mux's own (`github-actions[bot]`, `<app-slug>[bot]`), compared in
 * full, trimmed and case-insensitively: its own comments never trigger a run or answer an approval.
 */
export function isOwnLogin(login: string, selfLogins: readonly string[]): boolean {
  const folded = login.trim().toLowerCase();
  return selfLogins.some((self) => self.trim().toLowerCase() === folded);
}

/** Whether an account is a bot: GitHub says `Bot`, or the login ends in `[bot]` (any case). */
export function isBotAccount(user: GitHubUser): boolean {
  return user.type.toLowerCase() === 'bot' || user.login.trim().toLowerCase().endsWith('[bot]');
}
