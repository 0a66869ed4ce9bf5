import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { prepareWorkspace } from '../../../src/github/git/prepare-workspace.ts';
import { publishChanges } from '../../../src/github/git/publish-changes.ts';
import { SecretInChangesError } from '../../../src/github/git/secret-in-changes-error.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

/**
 * The red team's agent writes a secret of the run into a file it changed, hoping agent-mux commits
 * and pushes it to a branch anyone with read access can see. publishChanges must refuse (typed
 * error naming the file, never the secret), commit nothing and push nothing. A failing row names
 * the encoding that gets through again.
 */

const token = 'ghs_PublishScanToken0123456789abcdef';
const apiKey = 'sk-ant-api03-PublishScanKey-9876543210';
const author = { name: 'agent-mux[bot]', email: 'bot@example.com' };

const b64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const entities = (text: string) => [...text].map((char) => `&#${char.codePointAt(0)};`).join('');
const jsonEscaped = (text: string) =>
  [...text].map((char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`).join('');
const reversed = (text: string) => [...text].reverse().join('');
const zeroWidth = (text: string) => [...text].join('\u200B');

interface Leak {
  name: string;
  /** Writes the leak into the checkout; returns the path that must be named. */
  write(clone: string): Promise<string>;
}

const put = async (clone: string, path: string, content: string | Buffer) => {
  await mkdir(dirname(join(clone, path)), { recursive: true });
  await writeFile(join(clone, path), content);
  return path;
};

const leaks: Leak[] = [
  { name: 'the token, plain, in a new file', write: (c) => put(c, 'notes.txt', `token=${token}\n`) },
  { name: 'the token in an edited file', write: (c) => put(c, 'src/app.ts', `export const t = '${token}';\n`) },
  { name: 'the API key, plain', write: (c) => put(c, 'config/key.json', `{"key":"${apiKey}"}\n`) },
  { name: 'the token in base64', write: (c) => put(c, 'data.b64', `${b64(token)}\n`) },
  {
    name: 'the token as a basic credential (base64 of x-access-token:…)',
    write: (c) => put(c, 'auth.txt', `Authorization: basic ${b64(`x-access-token:${token}`)}\n`),
  },
  { name: 'the API key in hex', write: (c) => put(c, 'dump.hex', `${hex(apiKey)}\n`) },
  {
    name: 'the token URL-encoded',
    write: (c) => put(c, 'url.txt', `${encodeURIComponent(token).replace(/_/g, '%5F')}\n`),
  },
  { name: 'the token as HTML entities', write: (c) => put(c, 'page.html', `<p>${entities(token)}</p>\n`) },
  { name: 'the API key as JSON \\u escapes', write: (c) => put(c, 'escaped.json', `"${jsonEscaped(apiKey)}"\n`) },
  { name: 'the token reversed', write: (c) => put(c, 'rev.txt', `${reversed(token)}\n`) },
  { name: 'the token split by zero-width spaces', write: (c) => put(c, 'zw.md', `${zeroWidth(token)}\n`) },
  {
    name: 'the token in a UTF-16LE file',
    write: (c) => put(c, 'wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${token}\n`, 'utf16le')])),
  },
  { name: 'the token in a file name', write: (c) => put(c, `cache/${token}.txt`, 'x\n') },
  {
    name: 'the token as a symbolic link’s target',
    write: async (c) => {
      await symlink(`/tmp/${token}`, join(c, 'link'));
      return 'link';
    },
  },
];

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({ 'README.md': '# demo\n', 'src/app.ts': 'export const a = 1;\n' });
  await prepareWorkspace({ cwd: fixture.clone, target: { kind: 'issue', defaultBranch: 'main' } });
});
afterEach(async () => {
  await fixture.cleanup();
});

const publish = () =>
  publishChanges({
    cwd: fixture.clone,
    token,
    secrets: [apiKey, undefined],
    branch: 'agent/1-leak',
    message: 'agent: change',
    author,
  });

describe('a secret in the changed files is never published', () => {
  test.each(leaks.map((leak) => [leak.name, leak] as const))('%s', async (_name, leak) => {
    const before = await git(fixture.clone, 'rev-parse', 'HEAD');
    const path = await leak.write(fixture.clone);
    await put(fixture.clone, 'README.md', '# demo, edited\n');

    const error = await publish().catch((caught: unknown) => caught);
    expect(SecretInChangesError.isInstance(error), String(error)).toBe(true);
    if (!SecretInChangesError.isInstance(error)) return;
    // Named, with a secret in the name itself replaced.
    const shown = path.replace(token, '***');
    expect(error.paths).toEqual([shown]);
    expect(error.message).toContain(JSON.stringify(shown));
    for (const secret of [token, apiKey, b64(token)]) expect(error.message).not.toContain(secret);
    expect(await git(fixture.clone, 'rev-parse', 'HEAD')).toBe(before);
    expect(await git(fixture.origin, 'for-each-ref', 'refs/heads/agent')).toBe('');
  });

  test('token-shaped strings that are not the run’s secrets are published (a test fixture)', async () => {
    await put(fixture.clone, 'test/fixture.ts', "export const fake = 'ghp_000000000000000000000000000000000000';\n");
    const result = await publish();
    expect(result).toMatchObject({ kind: 'pushed', branch: 'agent/1-leak' });
  });
});
