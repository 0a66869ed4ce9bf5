import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import {
  escapePointer,
  isRecord,
  loadGitHubDescription,
  type OpenApiDocument,
  type OpenApiOperation,
  resolveRef,
} from './openapi-document.ts';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** An operation of the description that a request's method and path matched. */
export interface RouteMatch {
  /** The templated path, e.g. `/repos/{owner}/{repo}/issues/{issue_number}/comments`. */
  template: string;
  /** Lower-case method. */
  method: string;
  operationId: string;
  operation: OpenApiOperation;
  /** Path parameters, URI-decoded, as strings. */
  params: Record<string, string>;
}

/** The outcome of checking a request: coerced values and readable errors per part. */
export interface RequestCheck {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  pathErrors: string[];
  queryErrors: string[];
  bodyErrors: string[];
}

interface CompiledRoute {
  template: string;
  segments: string[];
  operations: Map<string, OpenApiOperation>;
}

interface ParameterSpec {
  name: string;
  in: string;
  required: boolean;
  schemaPointer: string;
  schema: unknown;
}

/** Compile statistics, for the report on how expensive validation is. */
export interface ValidatorStats {
  /** Time to add the whole description to ajv (once per process). */
  addSchemaMs: number;
  /** Number of schemas compiled so far. */
  compiled: number;
  /** Total time spent compiling them. */
  compileMs: number;
  /** The slowest single compile. */
  slowestCompileMs: number;
}

type AjvInstance = InstanceType<typeof Ajv>;
/**
 * Where GitHub's real answers differ from its description, the fake answers like GitHub: these errors
 * are not violations. (A pull request whose fork was deleted has `head.repo: null`.)
 */
const knownGaps: { operation: RegExp; error: RegExp }[] = [
  { operation: /^pulls\//, error: /^response \d+ body(\/\d+)?\/head\/repo must be object$/ },
];

/**
 * Trailing parameters that may hold slashes when a client does not encode them (`contents/{path}`,
 * `git/ref/{ref}`, `branches/{branch}`): tried only when no template matches segment for segment.
 */
const greedyParameters = new Set(['{path}', '{ref}', '{branch}', '{basehead}', '{file_path}']);

/** Validators compiled in this process, by JSON pointer into the description (shared by all servers). */
const compiledSchemas = new Map<string, ValidateFunction>();
let sharedAjv: { ajv: AjvInstance; addSchemaMs: number } | undefined;

function ajvFor(document: OpenApiDocument): { ajv: AjvInstance; addSchemaMs: number } {
  if (sharedAjv === undefined) {
    const started = performance.now();
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats is CommonJS: under Node's ESM interop its default export is the module object.
    const plugin = ajvFormats as unknown as { default?: (a: AjvInstance) => void } & ((a: AjvInstance) => void);
    (plugin.default ?? plugin)(ajv);
    // The two formats of the description that ajv-formats does not know.
    ajv.addFormat('repo.nwo', /^[\w.-]+\/[\w.-]+$/);
    ajv.addFormat('timestamp', true);
    ajv.addSchema(nullableWithoutType(document) as object, 'gh');
    sharedAjv = { ajv, addSchemaMs: performance.now() - started };
  }
  return sharedAjv;
}

/**
 * Checks requests and responses against GitHub's REST description: matches a method and path to an
 * operation (literal segments beat templates), validates path and query parameters (coerced from
 * strings) and JSON bodies with ajv, compiling each schema lazily once per process.
 */
export class OpenApiValidator {
  readonly document: OpenApiDocument;
  readonly #ajv: AjvInstance;
  readonly #routesByLength = new Map<number, CompiledRoute[]>();
  readonly #greedyRoutes: CompiledRoute[] = [];
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #stats: ValidatorStats;

  constructor(document: OpenApiDocument = loadGitHubDescription()) {
    this.document = document;
    const { ajv, addSchemaMs } = ajvFor(document);
    this.#ajv = ajv;
    this.#stats = { addSchemaMs, compiled: 0, compileMs: 0, slowestCompileMs: 0 };
    for (const [template, item] of Object.entries(document.paths)) {
      const operations = new Map<string, OpenApiOperation>();
      for (const method of methods) {
        const operation = item[method];
        if (isRecord(operation)) operations.set(method, operation as OpenApiOperation);
      }
      const route: CompiledRoute = { template, segments: template.split('/').slice(1), operations };
      const list = this.#routesByLength.get(route.segments.length) ?? [];
      list.push(route);
      this.#routesByLength.set(route.segments.length, list);
      if (greedyParameters.has(route.segments.at(-1) ?? '')) this.#greedyRoutes.push(route);
    }
  }

  /** Compile statistics so far. */
  get stats(): ValidatorStats {
    return { ...this.#stats };
  }

  /** Strips a GitHub Enterprise `/api/v3` prefix. */
  static stripPrefix(path: string): string {
    return path.startsWith('/api/v3/') || path === '/api/v3' ? path.slice('/api/v3'.length) || '/' : path;
  }

  /**
   * The operation for a method and path (path without query; `/api/v3` prefix allowed). `undefined` when
   * no path matches; `{ methodNotAllowed: true }` when the path exists but not for that method.
   */
  match(method: string, rawPath: string): RouteMatch | { methodNotAllowed: true } | undefined {
    const path = OpenApiValidator.stripPrefix(rawPath);
    const segments = path.split('/').slice(1);
    if (segments.length > 1 && segments.at(-1) === '') segments.pop();
    const lower = method.toLowerCase();
    const exact = this.#best(this.#routesByLength.get(segments.length) ?? [], segments, false);
    const route = exact ?? this.#best(this.#greedyRoutes, segments, true);
    if (route === undefined) return undefined;
    const operation = route.operations.get(lower);
    if (operation === undefined) return { methodNotAllowed: true };
    const params: Record<string, string> = {};
    route.segments.forEach((segment, index) => {
      if (!segment.startsWith('{')) return;
      const name = segment.slice(1, -1);
      const isLast = index === route.segments.length - 1;
      const raw = isLast ? segments.slice(index).join('/') : (segments[index] ?? '');
      params[name] = safeDecode(raw);
    });
    return { template: route.template, method: lower, operationId: operation.operationId ?? '', operation, params };
  }

  #best(candidates: CompiledRoute[], segments: string[], greedy: boolean): CompiledRoute | undefined {
    let best: CompiledRoute | undefined;
    for (const route of candidates) {
      if (greedy ? route.segments.length >= segments.length : route.segments.length !== segments.length) continue;
      const fits = route.segments.every((segment, index) => {
        const actual = segments[index];
        if (actual === undefined || actual === '') return false;
        return segment.startsWith('{') || segment === actual;
      });
      if (!fits) continue;
      if (best === undefined || prefers(route, best)) best = route;
    }
    return best;
  }

  /** Validates path parameters, query parameters and the JSON body of a matched request. */
  validateRequest(match: RouteMatch, query: Record<string, string | string[]>, body: unknown): RequestCheck {
    const check: RequestCheck = { params: {}, query: {}, pathErrors: [], queryErrors: [], bodyErrors: [] };
    const specs = this.#parameters(match);
    for (const spec of specs.filter((s) => s.in === 'path')) {
      const raw = match.params[spec.name];
      if (raw === undefined) continue;
      const value = coerce(spec.schema, raw, this.document);
      check.params[spec.name] = value;
      check.pathErrors.push(...this.#check(spec.schemaPointer, value, `path parameter ${spec.name}`));
    }
    const querySpecs = specs.filter((s) => s.in === 'query');
    for (const [name, raw] of Object.entries(query)) {
      const spec = querySpecs.find((s) => s.name === name);
      if (spec === undefined) {
        check.queryErrors.push(`query parameter ${name} is not a parameter of ${match.operationId}`);
        continue;
      }
      const value = coerce(spec.schema, Array.isArray(raw) ? raw.join(',') : raw, this.document);
      check.query[name] = value;
      check.queryErrors.push(...this.#check(spec.schemaPointer, value, `query parameter ${name}`));
    }
    for (const spec of querySpecs) {
      if (spec.required && !(spec.name in query)) check.queryErrors.push(`query parameter ${spec.name} is required`);
    }
    check.bodyErrors.push(...this.#checkBody(match, body));
    return check;
  }

  #checkBody(match: RouteMatch, body: unknown): string[] {
    const requestBody: unknown = match.operation.requestBody;
    const pointerBase = `#/paths/${escapePointer(match.template)}/${match.method}/requestBody`;
    const resolved = resolveRef(this.document, requestBody) as OpenApiOperation['requestBody'];
    const base = isRecord(requestBody) && typeof requestBody.$ref === 'string' ? requestBody.$ref : pointerBase;
    if (resolved === undefined) {
      const empty = body === undefined || (isRecord(body) && Object.keys(body).length === 0);
      return empty ? [] : [`${match.operationId} takes no request body, got ${JSON.stringify(body).slice(0, 200)}`];
    }
    if (body === undefined) return resolved.required ? [`${match.operationId} requires a JSON request body`] : [];
    if (resolved.content?.['application/json']?.schema === undefined) return [];
    if (typeof body === 'string') return [`the request body is not JSON: ${body.slice(0, 200)}`];
    return this.#check(`${base}/content/application~1json/schema`, body, 'body');
  }

  /** Validates a response body against the operation's schema for that status (none when it has no schema). */
  validateResponse(match: RouteMatch, status: number, body: unknown): string[] {
    const responses = match.operation.responses ?? {};
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
    if (key === undefined) {
      return status < 400 ? [`${match.operationId} does not document status ${status}`] : [];
    }
    const errors = this.#responseErrors(match, responses, key, status, body);
    return errors.filter(
      (error) => !knownGaps.some((gap) => gap.operation.test(match.operationId) && gap.error.test(error)),
    );
  }

  #responseErrors(
    match: RouteMatch,
    responses: Record<string, unknown>,
    key: string,
    status: number,
    body: unknown,
  ): string[] {
    const response = responses[key];
    const base =
      isRecord(response) && typeof response.$ref === 'string'
        ? response.$ref
        : `#/paths/${escapePointer(match.template)}/${match.method}/responses/${key}`;
    const resolved = resolveRef(this.document, response);
    const content = isRecord(resolved) && isRecord(resolved.content) ? resolved.content['application/json'] : undefined;
    if (!isRecord(content) || content.schema === undefined) return [];
    return this.#check(`${base}/content/application~1json/schema`, body, `response ${status} body`);
  }

  #parameters(match: RouteMatch): ParameterSpec[] {
    const item = this.document.paths[match.template] ?? {};
    const specs: ParameterSpec[] = [];
    const collect = (list: unknown, pointer: string): void => {
      if (!Array.isArray(list)) return;
      list.forEach((entry, index) => {
        const parameterPointer =
          isRecord(entry) && typeof entry.$ref === 'string' ? entry.$ref : `${pointer}/parameters/${index}`;
        const parameter = resolveRef(this.document, entry);
        if (!isRecord(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') return;
        specs.push({
          name: parameter.name,
          in: parameter.in,
          required: parameter.required === true,
          schemaPointer: `${parameterPointer}/schema`,
          schema: resolveRef(this.document, parameter.schema),
        });
      });
    };
    const pathPointer = `#/paths/${escapePointer(match.template)}`;
    collect(item.parameters, pathPointer);
    collect(match.operation.parameters, `${pathPointer}/${match.method}`);
    return specs;
  }

  #check(pointer: string, value: unknown, label: string): string[] {
    const validate = this.#compile(pointer);
    if (validate(value)) return [];
    return formatErrors(validate.errors ?? [], label);
  }

  #compile(pointer: string): ValidateFunction {
    const existing = this.#compiled.get(pointer) ?? compiledSchemas.get(pointer);
    if (existing !== undefined) {
      this.#compiled.set(pointer, existing);
      return existing;
    }
    const started = performance.now();
    const validate = this.#ajv.compile({ $ref: `gh${pointer}` });
    const elapsed = performance.now() - started;
    this.#stats.compiled += 1;
    this.#stats.compileMs += elapsed;
    this.#stats.slowestCompileMs = Math.max(this.#stats.slowestCompileMs, elapsed);
    this.#compiled.set(pointer, validate);
    compiledSchemas.set(pointer, validate);
    return validate;
  }
}

/**
 * A copy of the description where `nullable: true` without a `type` (which ajv rejects) becomes
 * `anyOf: [schema, {type: 'null'}]` and a nullable `enum` lists `null`; everything else is shared with the original.
 */
function nullableWithoutType(node: unknown): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const items = node.map((item) => {
      const next = nullableWithoutType(item);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : node;
  }
  if (!isRecord(node)) return node;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' || key === 'example') continue;
    const next = nullableWithoutType(value);
    if (next !== value) {
      copy ??= { ...node };
      copy[key] = next;
    }
  }
  let result = copy ?? node;
  if (result.nullable === true && Array.isArray(result.enum) && !result.enum.includes(null)) {
    // OpenAPI 3.0 allows null for a nullable enum; ajv wants null listed.
    result = { ...result, enum: [...result.enum, null] };
  }
  if (result.nullable === true && result.type === undefined) {
    const { nullable: _nullable, ...rest } = result;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return result;
}

/** True when `a` has a literal segment at the first position where `a` and `b` differ in kind. */
function prefers(a: CompiledRoute, b: CompiledRoute): boolean {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index++) {
    const aLiteral = !a.segments[index]?.startsWith('{');
    const bLiteral = !b.segments[index]?.startsWith('{');
    if (aLiteral !== bLiteral) return aLiteral;
  }
  return a.segments.length > b.segments.length;
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Coerces a query or path string to the parameter schema's type (integers, numbers, booleans, arrays). */
function coerce(schema: unknown, raw: string, document: OpenApiDocument): unknown {
  const resolved = resolveRef(document, schema);
  const type = isRecord(resolved) ? resolved.type : undefined;
  if (type === 'integer' && /^-?\d+$/.test(raw)) return Number(raw);
  if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (type === 'array') {
    const items = isRecord(resolved) ? resolved.items : undefined;
    return raw.split(',').map((part) => coerce(items, part, document));
  }
  return raw;
}

/** Readable ajv errors: `body/output/summary must NOT have more than 65535 characters`. */
export function formatErrors(errors: ErrorObject[], label: string): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const error of errors) {
    let detail = error.message ?? error.keyword;
    if (error.keyword === 'enum' && isRecord(error.params)) {
      detail += ` ${JSON.stringify(error.params.allowedValues)}`;
    }
    if (error.keyword === 'additionalProperties' && isRecord(error.params)) {
      detail += ` (${String(error.params.additionalProperty)})`;
    }
    const line = `${label}${error.instancePath} ${detail}`;
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return lines;
}
