import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { budgetedApi, WRITE_METHODS } from '../../src/github/budgeted-api.ts';
import type { GitHubApi } from '../../src/github/github-api.ts';
import { WriteBudget } from '../../src/github/pacing/write-budget.ts';

/** Each `GitHubApi` method with the HTTP method its doc comment names (`/** POST /repos/…`). */
async function documentedMethods(): Promise<Map<string, string>> {
  const text = await readFile(new URL('../../src/github/github-api.ts', import.meta.url), 'utf8');
  const body = text.slice(text.indexOf('export interface GitHubApi {'));
  const methods = new Map<string, string>();
  const pattern = /\/\*\*\s*(GET|POST|PATCH|PUT|DELETE)\b[\s\S]*?\*\/\s*\n\s*(\w+)\(/g;
  for (const match of body.matchAll(pattern)) methods.set(match[2]!, match[1]!);
  return methods;
}

describe('budgetedApi', () => {
  it('names as writes exactly the methods GitHub answers with POST, PATCH, PUT or DELETE', async () => {
    const methods = await documentedMethods();
    expect(methods.size).toBeGreaterThan(20);
    const writes = [...methods].filter(([, verb]) => verb !== 'GET').map(([name]) => name);
    expect([...WRITE_METHODS].sort()).toEqual(writes.sort());
  });

  it('counts every write as urgent while it runs, and no read', async () => {
    const methods = await documentedMethods();
    const budget = new WriteBudget();
    const pendingAtCall = new Map<string, number>();
    const api = Object.fromEntries(
      [...methods.keys()].map((name) => [
        name,
        async () => {
          pendingAtCall.set(name, budget.urgentPending);
          return name;
        },
      ]),
    ) as unknown as GitHubApi;
    const wrapped = budgetedApi(api, budget);
    const call = wrapped as unknown as Record<string, () => Promise<unknown>>;
    for (const name of methods.keys()) await expect(call[name]!()).resolves.toBe(name);
    for (const [name, verb] of methods) expect(pendingAtCall.get(name), name).toBe(verb === 'GET' ? 0 : 1);
    expect(budget.urgentPending).toBe(0);
  });

  it('passes a failed write on and stops counting it', async () => {
    const budget = new WriteBudget();
    const api = {
      addReaction: () => Promise.reject(new Error('422')),
    } as unknown as GitHubApi;
    const wrapped = budgetedApi(api, budget);
    await expect(
      wrapped.addReaction({ owner: 'o', repo: 'r' }, { kind: 'issue', issueNumber: 1 }, 'eyes'),
    ).rejects.toThrow('422');
    expect(budget.urgentPending).toBe(0);
  });
});
