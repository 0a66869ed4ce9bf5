import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** One operation object of the description (only the parts the fake reads). */
export interface OpenApiOperation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
}

/** GitHub's published REST description (OpenAPI 3.0.3), as parsed JSON. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

let cached: { document: OpenApiDocument; loadMs: number } | undefined;

/**
 * The path of GitHub's description of api.github.com: `generated/api.github.com.json` of the npm
 * package `@octokit/openapi`, kept gzipped in test/fixtures/github-openapi (its VERSION file says
 * which; `node scripts/update-github-openapi.ts` refreshes it). The whole package is 385 MB.
 */
export function descriptionPath(): string {
  return new URL('../../fixtures/github-openapi/api.github.com.json.gz', import.meta.url).pathname;
}

/** Reads and parses the description once per process (about 13 MB); later calls return the same object. */
export function loadGitHubDescription(): OpenApiDocument {
  if (cached === undefined) {
    const started = performance.now();
    const document = JSON.parse(gunzipSync(readFileSync(descriptionPath())).toString('utf8')) as OpenApiDocument;
    cached = { document, loadMs: performance.now() - started };
  }
  return cached.document;
}

/** How long the one load took, in milliseconds (undefined before the first load). */
export function descriptionLoadMs(): number | undefined {
  return cached?.loadMs;
}

/** Follows one local `$ref` (`#/components/...`) if `value` is a reference object. */
export function resolveRef(document: OpenApiDocument, value: unknown): unknown {
  let current = value;
  for (let depth = 0; depth < 10; depth++) {
    if (!isRecord(current) || typeof current.$ref !== 'string') return current;
    current = atPointer(document, current.$ref);
  }
  return current;
}

/** The value at a JSON pointer such as `#/components/schemas/issue`. */
export function atPointer(document: OpenApiDocument, pointer: string): unknown {
  const parts = pointer.replace(/^#\//, '').split('/');
  let current: unknown = document;
  for (const raw of parts) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Escapes one JSON pointer segment (`/` → `~1`, `~` → `~0`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A deep copy of the description's first example for an operation's response (`components.examples`),
 * the starting point of every body the fake sends. Undefined when the description has none.
 */
export function exampleFor(document: OpenApiDocument, path: string, method: string, status: number): unknown {
  const operation = document.paths[path]?.[method] as OpenApiOperation | undefined;
  const response = resolveRef(document, operation?.responses?.[String(status)]);
  if (!isRecord(response) || !isRecord(response.content)) return undefined;
  const media = response.content['application/json'];
  if (!isRecord(media) || !isRecord(media.examples)) return undefined;
  const first = Object.values(media.examples)[0];
  const example = unwrapExample(document, first);
  return example === undefined ? undefined : structuredClone(example);
}

/** A named example from `components.examples`, deep-copied. */
export function namedExample(document: OpenApiDocument, name: string): unknown {
  const example = document.components.examples?.[name];
  if (!isRecord(example)) throw new Error(`no example ${name} in the description`);
  return structuredClone(unwrapExample(document, example));
}

/** Follows `$ref`s and `{summary, value}` wrappers down to the example value. */
function unwrapExample(document: OpenApiDocument, example: unknown): unknown {
  let current = resolveRef(document, example);
  for (let depth = 0; depth < 5 && isRecord(current) && 'value' in current; depth++) {
    const wrapperKeys = Object.keys(current).every(
      (key) => ['summary', 'description', 'value'].includes(key) || key.startsWith('x-'),
    );
    if (!wrapperKeys) break;
    current = resolveRef(document, current.value);
  }
  return current;
}

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
