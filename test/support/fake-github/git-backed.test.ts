import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from './fake-github.ts';

const ref = { owner: 'acme', repo: 'widgets' };
const identity = ['-c', 'user.name=t', '-c', 'user.email=t@e'];

let dir: string;
let bare: string;
let work: string;
let mainSha: string;
let gh: FakeGitHub;
let octokit: Octokit;

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd })).stdout.trim();
}

async function commit(file: string, text: string, message: string): Promise<string> {
  await writeFile(join(work, file), text);
  await git(work, 'add', file);
  await git(work, ...identity, 'commit', '-q', '-m', message);
  return git(work, 'rev-parse', 'HEAD');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fake-github-git-'));
  bare = join(dir, 'widgets.git');
  work = join(dir, 'work');
  await execa('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  await execa('git', ['clone', '-q', bare, work]);
  await git(work, 'checkout', '-q', '-b', 'main');
  mainSha = await commit('config.yml', 'agent: codex\n', 'first');
  await git(work, 'push', '-q', 'origin', 'main');
  gh = await startFakeGitHub({ git: { bareRepo: bare } });
  octokit = new Octokit({ auth: 'tok', baseUrl: gh.url });
  gh.state.addRepo(ref);
});

afterAll(async () => {
  await gh?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('git-backed mode', () => {
  it('reads branch refs and files from the bare repository', async () => {
    const main = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...ref, ref: 'heads/main' });
    expect(main.data.object.sha).toBe(mainSha);
    const file = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...ref,
      path: 'config.yml',
      ref: 'main',
    });
    const data = file.data as { content: string; sha: string };
    expect(Buffer.from(data.content, 'base64').toString()).toBe('agent: codex\n');
    expect(data.sha).toBe(await git(bare, 'rev-parse', 'main:config.yml'));
    const bySha = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...ref,
      path: 'config.yml',
      ref: mainSha,
    });
    expect(bySha.status).toBe(200);
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...ref, path: 'absent.yml' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...ref, ref: 'heads/absent' }),
    ).rejects.toMatchObject({ status: 404 });
    gh.assertNoViolations();
  });

  it('refuses a pull request from a branch that does not exist, creates one from a pushed branch', async () => {
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls', { ...ref, title: 'x', head: 'agent/nope', base: 'main' }),
    ).rejects.toMatchObject({ status: 422 });
    await git(work, 'checkout', '-q', '-b', 'agent/fix');
    const headSha = await commit('fix.txt', 'fixed\n', 'fix');
    await git(work, 'push', '-q', 'origin', 'agent/fix');
    const created = await octokit.request('POST /repos/{owner}/{repo}/pulls', {
      ...ref,
      title: 'Fix',
      head: 'agent/fix',
      base: 'main',
      body: 'by the agent',
    });
    expect(created.data.head).toMatchObject({ ref: 'agent/fix', sha: headSha });
    expect(created.data.base.sha).toBe(mainSha);
    expect(await git(bare, 'rev-parse', `refs/pull/${created.data.number}/head`)).toBe(headSha);

    const nextSha = await commit('fix.txt', 'fixed again\n', 'again');
    await git(work, 'push', '-q', 'origin', 'agent/fix');
    const got = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...ref,
      pull_number: created.data.number,
    });
    expect(got.data.head.sha).toBe(nextSha);
    gh.assertNoViolations();
  });

  it('addPull and pushHead write refs/pull/N/head', async () => {
    const pull = gh.state.addPull(ref, { number: 40, title: 'Seeded', headRef: 'main', user: 'alice' });
    expect(pull.headSha).toBe(mainSha);
    expect(await git(bare, 'rev-parse', 'refs/pull/40/head')).toBe(mainSha);
    const other = await git(bare, 'rev-parse', 'agent/fix');
    gh.state.pushHead(ref, 40, other);
    expect(await git(bare, 'rev-parse', 'refs/pull/40/head')).toBe(other);
  });
});
