import { readFile } from 'node:fs/promises';
import * as core from '@actions/core';
import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';
import { createGitHubApi } from '../../github/create-github-api.ts';
import { createOctokit } from '../../github/create-octokit.ts';
import type { GitHubApi } from '../../github/github-api.ts';
import type { GitHubDeps } from '../../github/use-cases/decide-trigger.ts';
import { type ActionInputs, readActionInputs } from '../action-inputs.ts';
import { actionSpendLimits } from '../action-spend-limits.ts';

/** What every step of the Action's main reads: the runner's variables, the inputs, the event, GitHub. */
export interface ActionContext {
  env: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  eventName: string;
  /** The event the runner saved (`GITHUB_EVENT_PATH`), as parsed JSON. */
  payload: unknown;
  api: GitHubApi;
  registry: AdapterRegistry;
  deps: GitHubDeps;
}

/**
 * The first step: the inputs (the token and keys masked in the log at once), the saved event and
 * a GitHub client. Throws a clear error for a missing runner variable or an invalid input.
 */
export async function readActionContext(env: NodeJS.ProcessEnv): Promise<ActionContext> {
  const inputs = readActionInputs((name) => core.getInput(name));
  core.setSecret(inputs.githubToken);
  for (const key of Object.values(inputs.apiKeys)) core.setSecret(key);
  const eventName = required(env, 'GITHUB_EVENT_NAME');
  const payload: unknown = JSON.parse(await readFile(required(env, 'GITHUB_EVENT_PATH'), 'utf8'));
  const api = createGitHubApi(
    createOctokit({
      token: inputs.githubToken,
      baseUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
      userAgent: 'agent-mux-action',
      log: (line) => core.info(line),
    }),
  );
  const registry = createBuiltinRegistry();
  const deps: GitHubDeps = {
    api,
    selfLogins: [inputs.botLogin],
    builtinAgents: registry.ids(),
    spend: actionSpendLimits(env, api),
    log: (line) => core.info(line),
  };
  return { env, inputs, eventName, payload, api, registry, deps };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: agent-mux runs as a step of a GitHub Actions job`);
  return value;
}
