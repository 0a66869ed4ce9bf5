/**
 * "Register GitHub App" as a new user does it: the real `probot run` without APP_ID (Probot's setup
 * mode) in a directory holding the project's app.yml, with a smee channel in WEBHOOK_PROXY_URL. The
 * manifest the setup page would POST to GitHub must send the app's webhooks to that channel.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRecord } from '../support/fake-github/openapi-document.ts';
import { APP_ENTRY, type ProbotProcess, REPO_ROOT, startProbot } from './probot-process.ts';

const PROXY_URL = 'https://smee.io/agent-mux-e2e-channel';

/** The manifest in the setup page's "Register GitHub App" button (`<button name="manifest" value='…'>`). */
function manifestOf(html: string): Record<string, unknown> {
  const match = /name="manifest"[^>]*value='([^']*)'/.exec(html);
  if (match?.[1] === undefined) throw new Error(`no manifest button in the setup page:\n${html.slice(0, 2000)}`);
  const manifest: unknown = JSON.parse(match[1]);
  if (!isRecord(manifest)) throw new Error(`the manifest is not an object: ${match[1]}`);
  return manifest;
}

describe('probot run without APP_ID (setup mode) and the project app.yml', () => {
  let root: string;
  let app: ProbotProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'agent-mux-setup-'));
    await copyFile(join(REPO_ROOT, 'app.yml'), join(root, 'app.yml'));
    app = await startProbot({
      entry: APP_ENTRY,
      cwd: root,
      env: { HOME: root, WEBHOOK_PROXY_URL: PROXY_URL, LOG_LEVEL: 'info' },
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('registers an app whose webhooks go to WEBHOOK_PROXY_URL, with app.yml’s events and permissions', async () => {
    const response = await fetch(`${app!.url}/probot`);
    expect(response.status).toBe(200);
    const manifest = manifestOf(await response.text());
    const appYml: unknown = parse(await readFile(join(root, 'app.yml'), 'utf8'));
    const declared = isRecord(appYml) ? appYml : {};

    expect(manifest.hook_attributes).toEqual({ url: PROXY_URL });
    expect(manifest.redirect_url).toBe(`${app!.url}/probot/setup`);
    expect(manifest).toMatchObject({
      name: 'agent-mux',
      url: 'https://github.com/agent-mux/agent-mux',
      public: false,
      default_events: declared.default_events,
      default_permissions: declared.default_permissions,
    });
  });
});
