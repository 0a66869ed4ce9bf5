import { describe, expect, it } from 'vitest';
import { descriptionLoadMs, loadGitHubDescription } from './openapi-document.ts';
import { OpenApiValidator, type RouteMatch } from './openapi-validator.ts';

const validator = new OpenApiValidator();

function matched(method: string, path: string): RouteMatch {
  const match = validator.match(method, path);
  if (match === undefined || 'methodNotAllowed' in match) throw new Error(`${method} ${path} did not match`);
  return match;
}

describe('OpenApiValidator.match', () => {
  const table: [string, string, string, Record<string, string>][] = [
    ['GET', '/repos/o/r', '/repos/{owner}/{repo}', { owner: 'o', repo: 'r' }],
    ['GET', '/api/v3/repos/o/r', '/repos/{owner}/{repo}', { owner: 'o', repo: 'r' }],
    [
      'GET',
      '/repos/o/r/issues/comments/5',
      '/repos/{owner}/{repo}/issues/comments/{comment_id}',
      { owner: 'o', repo: 'r', comment_id: '5' },
    ],
    [
      'GET',
      '/repos/o/r/issues/5/comments',
      '/repos/{owner}/{repo}/issues/{issue_number}/comments',
      { owner: 'o', repo: 'r', issue_number: '5' },
    ],
    [
      'GET',
      '/repos/o/r/contents/.github/agent.yml',
      '/repos/{owner}/{repo}/contents/{path}',
      { owner: 'o', repo: 'r', path: '.github/agent.yml' },
    ],
    [
      'GET',
      '/repos/o/r/contents/.github%2Fagent.yml',
      '/repos/{owner}/{repo}/contents/{path}',
      { owner: 'o', repo: 'r', path: '.github/agent.yml' },
    ],
    [
      'GET',
      '/repos/o/r/git/ref/heads/feature/x',
      '/repos/{owner}/{repo}/git/ref/{ref}',
      { owner: 'o', repo: 'r', ref: 'heads/feature/x' },
    ],
    [
      'POST',
      '/app/installations/7/access_tokens',
      '/app/installations/{installation_id}/access_tokens',
      { installation_id: '7' },
    ],
  ];

  it.each(table)('%s %s → %s', (method, path, template, params) => {
    const match = matched(method, path);
    expect(match.template).toBe(template);
    expect(match.params).toEqual(params);
  });

  it('prefers literal segments over templates', () => {
    // `/repos/{owner}/{repo}/pulls/comments` (literal) beats `/repos/{owner}/{repo}/pulls/{pull_number}`.
    expect(matched('GET', '/repos/o/r/pulls/comments').template).toBe('/repos/{owner}/{repo}/pulls/comments');
    expect(matched('GET', '/repos/o/r/pulls/12').template).toBe('/repos/{owner}/{repo}/pulls/{pull_number}');
  });

  it('tells an unknown path from a method the path lacks', () => {
    expect(validator.match('GET', '/repos/o/r/not-a-thing')).toBeUndefined();
    expect(validator.match('PUT', '/repos/o/r/check-runs')).toEqual({ methodNotAllowed: true });
  });
});

describe('OpenApiValidator.validateRequest and validateResponse', () => {
  it('coerces query strings and checks enums and required fields', () => {
    const match = matched('GET', '/repos/o/r/pulls');
    const ok = validator.validateRequest(match, { state: 'open', per_page: '100', head: 'o:b' }, undefined);
    expect(ok.query).toEqual({ state: 'open', per_page: 100, head: 'o:b' });
    expect([...ok.queryErrors, ...ok.bodyErrors]).toEqual([]);
    const bad = validator.validateRequest(match, { state: 'merged' }, undefined);
    expect(bad.queryErrors.join()).toMatch(/query parameter state must be equal to one of the allowed values/);
  });

  it('checks request bodies, including a missing required body', () => {
    const match = matched('POST', '/repos/o/r/issues/1/comments');
    expect(validator.validateRequest(match, {}, { body: 'hi' }).bodyErrors).toEqual([]);
    expect(validator.validateRequest(match, {}, undefined).bodyErrors).toEqual([
      'issues/create-comment requires a JSON request body',
    ]);
    expect(validator.validateRequest(match, {}, { body: 5 }).bodyErrors).toEqual(['body/body must be string']);
  });

  it('checks responses against the schema of the status sent', () => {
    const match = matched('GET', '/repos/o/r/git/ref/heads/main');
    expect(validator.validateResponse(match, 404, { message: 'Not Found', documentation_url: 'x' })).toEqual([]);
    expect(validator.validateResponse(match, 200, { ref: 'refs/heads/main' }).join()).toMatch(
      /must have required property 'object'/,
    );
  });

  it('loads the description once and compiles validators lazily', () => {
    expect(loadGitHubDescription()).toBe(validator.document);
    const loadMs = descriptionLoadMs() ?? Number.NaN;
    const { addSchemaMs, compiled, compileMs, slowestCompileMs } = validator.stats;
    console.info(
      `description: load ${loadMs.toFixed(0)} ms, ajv.addSchema ${addSchemaMs.toFixed(0)} ms, ` +
        `${compiled} validators compiled in ${compileMs.toFixed(0)} ms (slowest ${slowestCompileMs.toFixed(0)} ms)`,
    );
    expect(compiled).toBeGreaterThan(0);
  });
});
