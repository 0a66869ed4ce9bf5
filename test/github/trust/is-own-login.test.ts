import { describe, expect, it } from 'vitest';
import { isBotAccount, isOwnLogin } from '../../../src/github/trust/is-own-login.ts';

describe('isOwnLogin', () => {
  it('compares whole logins, trimmed and in any case', () => {
    expect(isOwnLogin('Agent-Mux[bot]', ['agent-mux[bot]'])).toBe(true);
    expect(isOwnLogin(' agent-mux[bot] ', ['agent-mux[bot]'])).toBe(true);
    expect(isOwnLogin('agent-mux', ['agent-mux[bot]'])).toBe(false);
    expect(isOwnLogin('agent-mux[bot]x', ['agent-mux[bot]'])).toBe(false);
    expect(isOwnLogin('alice', [])).toBe(false);
  });
});

describe('isBotAccount', () => {
  it.each([
    { user: { login: 'renovate[bot]', type: 'Bot' }, bot: true },
    { user: { login: 'renovate', type: 'bot' }, bot: true },
    { user: { login: 'Sneaky[BOT]', type: 'User' }, bot: true },
    { user: { login: 'alice', type: 'User' }, bot: false },
    { user: { login: 'botanist', type: 'Organization' }, bot: false },
  ])('$user.login ($user.type): $bot', ({ user, bot }) => {
    expect(isBotAccount(user)).toBe(bot);
  });
});
