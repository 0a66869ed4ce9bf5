import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/core/redact/redactor.ts';
import { readSessionSnapshot } from '../../../src/github/conversation/read-session-snapshot.ts';

const token = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snapshot-'));
  mkdirSync(join(root, 'projects'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('readSessionSnapshot', () => {
  it('reads the files when they are under the limit and hold no secret', async () => {
    writeFileSync(join(root, 'projects/s.jsonl'), '{"type":"user","text":"hello"}\n');
    const result = await readSessionSnapshot(
      { root, files: ['projects/s.jsonl'] },
      { redactor: new Redactor([token]) },
    );
    expect(result).toMatchObject({ ok: true, snapshot: { bytes: 31, files: [{ path: 'projects/s.jsonl' }] } });
  });

  it('refuses a session holding the token, plain or encoded', async () => {
    writeFileSync(join(root, 'projects/plain.jsonl'), `{"text":"token ${token}"}\n`);
    writeFileSync(join(root, 'projects/b64.jsonl'), `{"text":"${Buffer.from(token).toString('base64')}"}\n`);
    writeFileSync(join(root, 'projects/clean.jsonl'), '{"text":"nothing"}\n');
    const redactor = new Redactor([token], { patterns: false });
    const result = await readSessionSnapshot(
      { root, files: ['projects/plain.jsonl', 'projects/b64.jsonl', 'projects/clean.jsonl'] },
      { redactor },
    );
    expect(result).toMatchObject({
      ok: false,
      reason: 'secret',
      files: ['projects/plain.jsonl', 'projects/b64.jsonl'],
    });
  });

  it('refuses a session over the size limit without reading it', async () => {
    writeFileSync(join(root, 'projects/big.jsonl'), Buffer.alloc(2048, 'a'));
    const result = await readSessionSnapshot(
      { root, files: ['projects/big.jsonl'] },
      { redactor: new Redactor([]), maxBytes: 1024 },
    );
    expect(result).toMatchObject({ ok: false, reason: 'too_large', bytes: 2048 });
  });

  it('refuses an empty session and rejects paths leaving the store', async () => {
    expect(await readSessionSnapshot({ root, files: [] }, { redactor: new Redactor([]) })).toMatchObject({
      ok: false,
      reason: 'no_files',
    });
    await expect(readSessionSnapshot({ root, files: ['../x'] }, { redactor: new Redactor([]) })).rejects.toThrow(
      /outside/,
    );
  });
});
