import { z } from 'zod';
import { closestName } from '../errors/did-you-mean.ts';
import type { ConfigIssue } from '../errors/index.ts';
import { formatConfigPath } from './format-config-path.ts';
import type { SourceLocator } from './source-locator.ts';

type Path = readonly PropertyKey[];

/**
 * Turns zod's issues into one readable issue per problem, each with the field's dotted path
 * and, when `locator` is given, its line. An unknown key gives one issue per key, at the key's
 * line, suggesting the nearest known key.
 */
export function configIssuesFromZod(
  error: z.ZodError,
  options: { schema: z.ZodType; data: unknown; locator?: SourceLocator },
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (path: Path, message: string, at: 'key' | 'value' = 'value') =>
    issues.push({ path: formatConfigPath(path), message, line: options.locator?.line(path, at) });

  for (const issue of error.issues) {
    switch (issue.code) {
      case 'unrecognized_keys': {
        const known = keysAt(options.schema, options.data, issue.path);
        for (const key of issue.keys) add([...issue.path, key], unknownKeyMessage(key, known), 'key');
        break;
      }
      case 'invalid_key': {
        const inner = issue.issues[0]?.message ?? issue.message;
        add(issue.path, `invalid key ${quote(issue.path.at(-1))}: ${inner}`, 'key');
        break;
      }
      case 'invalid_union': {
        const options = 'options' in issue ? issue.options : undefined;
        if (issue.discriminator !== undefined && options) {
          const value = isRecord(issue.input) ? issue.input[issue.discriminator] : undefined;
          const expected = `expected one of ${options.map((o) => quote(o)).join(', ')}`;
          add(issue.path, value === undefined ? `is required (${expected})` : `${expected}, got ${describe(value)}`);
        } else add(issue.path, issue.message);
        break;
      }
      case 'invalid_type': {
        const expected = typeNames[issue.expected] ?? issue.expected;
        add(
          issue.path,
          issue.input === undefined
            ? `is required (expected ${expected})`
            : `expected ${expected}, got ${describe(issue.input)}`,
        );
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map((v) => quote(v));
        const expected = values.length === 1 ? `expected ${values[0]}` : `expected one of ${values.join(', ')}`;
        add(issue.path, `${expected}, got ${describe(issue.input)}`);
        break;
      }
      case 'too_small':
      case 'too_big':
        add(issue.path, boundMessage(issue));
        break;
      default:
        add(issue.path, issue.message);
    }
  }
  return issues;
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  null: 'null',
};

function boundMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  const inclusive = issue.inclusive !== false;
  const got = `, got ${describe(issue.input)}`;
  switch (issue.origin) {
    case 'string':
      if (small && bound === 1) return 'must not be empty';
      return `expected ${small ? 'at least' : 'at most'} ${bound} characters`;
    case 'array':
    case 'set':
      if (small && bound === 1) return 'must not be empty';
      return `expected ${small ? 'at least' : 'at most'} ${bound} items`;
    case 'number':
    case 'int':
    case 'bigint':
      if (small && bound === 0 && !inclusive) return `expected a positive number${got}`;
      if (inclusive) return `expected a number ${small ? 'of at least' : 'of at most'} ${bound}${got}`;
      return `expected a number ${small ? 'greater' : 'less'} than ${bound}${got}`;
    default:
      return issue.message;
  }
}

function unknownKeyMessage(key: string, known: readonly string[] | undefined): string {
  const base = `unknown key ${quote(key)}`;
  if (!known || known.length === 0) return base;
  const suggestion = closestName(key, known);
  return suggestion
    ? `${base} (did you mean ${quote(suggestion)}?)`
    : `${base}; expected one of ${known.map((k) => quote(k)).join(', ')}`;
}

/** The keys the object schema at `path` allows, following `data` through discriminated unions. */
function keysAt(schema: z.ZodType, data: unknown, path: Path): string[] | undefined {
  let node: unknown = schema;
  let value: unknown = data;
  for (const segment of path) {
    node = resolve(node, value);
    if (node instanceof z.ZodObject) node = (node.shape as Record<string, unknown>)[String(segment)];
    else if (node instanceof z.ZodRecord) node = node.valueType;
    else if (node instanceof z.ZodArray) node = node.element;
    else return undefined;
    value = isRecord(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
  }
  node = resolve(node, value);
  return node instanceof z.ZodObject ? Object.keys(node.shape) : undefined;
}

/** Unwraps optional and default wrappers and picks a discriminated union's option by the data. */
function resolve(node: unknown, value: unknown): unknown {
  for (let i = 0; i < 16; i++) {
    if (node instanceof z.ZodOptional || node instanceof z.ZodDefault || node instanceof z.ZodNullable) {
      node = node.unwrap();
    } else if (node instanceof z.ZodPipe) {
      node = node.in;
    } else if (node instanceof z.ZodDiscriminatedUnion) {
      const discriminator = node.def.discriminator;
      const wanted = isRecord(value) ? value[discriminator] : undefined;
      node = node.options.find(
        (option) =>
          option instanceof z.ZodObject &&
          (option.shape as Record<string, unknown>)[discriminator] instanceof z.ZodLiteral &&
          ((option.shape as Record<string, z.ZodLiteral>)[discriminator]?.values.has(wanted as z.core.util.Literal) ??
            false),
      );
    } else return node;
  }
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** A short description of a value for messages; long strings are cut. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return String(value);
  }
}
