import { readFile } from 'node:fs/promises';
import ajvDraft07 from 'ajv';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  parseRepoConfig,
  REPO_CONFIG_SCHEMA_DRAFT,
  REPO_CONFIG_SCHEMA_ID,
  repoConfigJsonSchema,
  repoConfigJsonSchemaText,
} from '../../../src/github/config/index.ts';

const root = new URL('../../../', import.meta.url);
const committed = JSON.parse(await readFile(new URL('schema/agent-mux.schema.json', root), 'utf8')) as unknown;

// Both are CommonJS; under Node's ESM interop the default import is `module.exports`, whose
// `.default` is the class (the plugin) in Node and in TypeScript's view alike. Ajv's main class
// is its draft-07 validator, the draft the schema declares; strict mode refuses any keyword
// draft-07 does not know.
const ajv = new ajvDraft07.default({ strict: true, allErrors: true });
ajvFormats.default(ajv);
const validate = ajv.compile(repoConfigJsonSchema());

/** The ```yaml blocks of docs/repo-config.md that are configurations (not the editor comment). */
async function docExamples(): Promise<string[]> {
  const doc = await readFile(new URL('docs/repo-config.md', root), 'utf8');
  return [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .filter((text) => !/^# yaml-language-server/.test(text));
}

describe('schema/agent-mux.schema.json', () => {
  it('equals a fresh generation (run `node scripts/generate-schema.ts` after changing the zod schema)', () => {
    expect(committed).toEqual(repoConfigJsonSchema());
    expect(JSON.parse(repoConfigJsonSchemaText())).toEqual(committed);
  });

  it('is a draft-07 schema with an id, a title and descriptions', () => {
    const schema = repoConfigJsonSchema();
    expect(REPO_CONFIG_SCHEMA_DRAFT).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema).toMatchObject({
      $schema: REPO_CONFIG_SCHEMA_DRAFT,
      $id: REPO_CONFIG_SCHEMA_ID,
      title: expect.any(String),
      description: expect.any(String),
      additionalProperties: false,
    });
    expect(JSON.stringify(schema)).toContain('"description":"The minimum repository role');
  });

  it('has an $id at the raw URL of the committed file in the agent-mux/agent-mux repository', () => {
    expect(REPO_CONFIG_SCHEMA_ID).toBe(
      'https://raw.githubusercontent.com/agent-mux/agent-mux/main/schema/agent-mux.schema.json',
    );
    expect(committed).toMatchObject({ $schema: REPO_CONFIG_SCHEMA_DRAFT, $id: REPO_CONFIG_SCHEMA_ID });
  });

  it('uses no keyword that draft-07 lacks', () => {
    const later = new Set([
      '$defs',
      '$anchor',
      '$dynamicRef',
      '$dynamicAnchor',
      '$recursiveRef',
      '$recursiveAnchor',
      '$vocabulary',
      'prefixItems',
      'unevaluatedProperties',
      'unevaluatedItems',
      'dependentRequired',
      'dependentSchemas',
      'minContains',
      'maxContains',
      'contentSchema',
    ]);
    const found: string[] = [];
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) walk(item, `${path}/${index}`);
      } else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (later.has(key)) found.push(`${path}/${key}`);
          // draft-07's exclusiveMinimum/Maximum are numbers (draft-04's were booleans)
          if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof child !== 'number') {
            found.push(`${path}/${key}`);
          }
          walk(child, `${path}/${key}`);
        }
      }
    };
    walk(committed, '#');
    expect(found).toEqual([]);
  });

  it('describes the input: durations as strings with their defaults', () => {
    const schema = repoConfigJsonSchema() as {
      properties: { limits: { properties: { runTimeout: unknown } } };
    };
    expect(schema.properties.limits.properties.runTimeout).toMatchObject({ type: 'string', default: '30m' });
  });
});

describe('the JSON Schema agrees with the zod schema', () => {
  it('validates the examples of docs/repo-config.md, which parse too', async () => {
    const examples = await docExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const text of examples) {
      expect(validate(parse(text) ?? {}), JSON.stringify(validate.errors)).toBe(true);
      const result = parseRepoConfig(text, 'docs/repo-config.md');
      expect(result.ok ? '' : result.error.message).toBe('');
    }
  });

  it.each([
    ['an empty config', {}],
    ['label disabled', { trigger: { label: null } }],
    ['label false', { trigger: { label: false } }],
    ['an agent', { agents: { gpu: { adapter: 'http', timeout: '1h30m', url: 'http://gpu:7001' } } }],
    ['a policy', { tools: { policy: { rules: [{ tool: 'shell', decision: 'ask', when: { command: ['git *'] } }] } } }],
    ['approvals', { approvals: { users: ['@octocat'], teams: ['org/team'], timeout: '250ms' } }],
  ])('accepts %s', (_name, config) => {
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect(parseRepoConfig(JSON.stringify(config), 'x.yml').ok).toBe(true);
  });

  it.each([
    ['a misspelt key', { trigger: { phrse: '@agent' } }],
    ['an unknown role', { trigger: { permission: 'writer' } }],
    ['a wildcard bot', { trigger: { allowedBots: ['*[bot]'] } }],
    ['a phrase with spaces', { trigger: { phrase: '@agent please' } }],
    ['an agent without adapter', { agents: { codex: { model: 'x' } } }],
    ['an agent name with capitals', { agents: { Codex: { adapter: 'codex' } } }],
    ['a duration as a number', { limits: { runTimeout: 30 } }],
    ['a malformed duration', { approvals: { timeout: '30 minutes' } }],
    ['a negative budget', { limits: { budget: { usd: -1 } } }],
    ['an ftp url', { agents: { pi: { adapter: 'pi', url: 'ftp://gpu' } } }],
    ['an unknown concurrency mode', { concurrency: { perIssue: 'parallel' } }],
    ['a list at the root', []],
  ])('refuses %s (as the zod schema does)', (_name, config) => {
    expect(validate(config)).toBe(false);
    expect(parseRepoConfig(JSON.stringify(config), 'x.yml').ok).toBe(false);
  });
});
