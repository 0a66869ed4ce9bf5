/**
 * A small evaluator for the subset of GitHub Actions expressions that the example workflows'
 * `if:` filters use: property access (`github.event.comment.body`), string, number, boolean and
 * null literals, `contains(a, b)`, `startsWith(a, b)`, `==`, `!=`, `!`, `&&`, `||` and
 * parentheses, with GitHub's rules: a missing property is null, `&&`/`||` return an operand,
 * string comparison and `contains` ignore case, and `contains` on null searches ''.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/expressions
 */
export type ExpressionValue = string | number | boolean | null | ExpressionValue[] | { [key: string]: ExpressionValue };

/** The expression uses something outside the supported subset, or is malformed. */
export class WorkflowExpressionError extends Error {
  override readonly name = 'WorkflowExpressionError';
  static isInstance(error: unknown): error is WorkflowExpressionError {
    return error instanceof Error && error.name === 'WorkflowExpressionError';
  }
}

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'word'; value: string }
  | { kind: 'op'; value: string };

const tokenPattern = /\s*(?:'((?:[^']|'')*)'|(\d+(?:\.\d+)?)|([A-Za-z_][\w-]*)|(==|!=|&&|\|\||[!().,]))/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(tokenPattern.lastIndex))) break;
    const at = tokenPattern.lastIndex;
    const match = tokenPattern.exec(text);
    if (!match) throw new WorkflowExpressionError(`unsupported syntax at ${at}: ${text.slice(at, at + 20)}`);
    const [, str, num, word, op] = match;
    if (str !== undefined) tokens.push({ kind: 'string', value: str.replaceAll("''", "'") });
    else if (num !== undefined) tokens.push({ kind: 'number', value: Number(num) });
    else if (word !== undefined) tokens.push({ kind: 'word', value: word });
    else tokens.push({ kind: 'op', value: op ?? '' });
  }
  return tokens;
}

function truthy(value: ExpressionValue): boolean {
  return !(value === null || value === false || value === 0 || value === '' || Number.isNaN(value));
}

function toNumber(value: ExpressionValue): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function toText(value: ExpressionValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return Array.isArray(value) ? 'Array' : 'Object';
  return String(value);
}

function equals(a: ExpressionValue, b: ExpressionValue): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'object' && a !== null) return a === b;
  if (typeof b === 'object' && b !== null) return false;
  if (typeof a === typeof b) return a === b;
  return toNumber(a) === toNumber(b);
}

const functions: Record<string, (args: ExpressionValue[]) => ExpressionValue> = {
  contains: ([search = null, item = null]) =>
    Array.isArray(search)
      ? search.some((element) => equals(element, item))
      : toText(search).toLowerCase().includes(toText(item).toLowerCase()),
  startswith: ([text = null, prefix = null]) => toText(text).toLowerCase().startsWith(toText(prefix).toLowerCase()),
};

class Parser {
  private index = 0;
  private readonly tokens: Token[];
  private readonly context: Record<string, ExpressionValue>;

  constructor(tokens: Token[], context: Record<string, ExpressionValue>) {
    this.tokens = tokens;
    this.context = context;
  }

  parse(): ExpressionValue {
    const value = this.or();
    if (this.index < this.tokens.length) throw new WorkflowExpressionError(`unexpected ${this.describe()}`);
    return value;
  }

  private peekOp(value: string): boolean {
    const token = this.tokens[this.index];
    return token?.kind === 'op' && token.value === value;
  }

  private expectOp(value: string): void {
    if (!this.peekOp(value)) throw new WorkflowExpressionError(`expected ${value}, found ${this.describe()}`);
    this.index += 1;
  }

  private describe(): string {
    const token = this.tokens[this.index];
    return token ? `${token.kind} ${String(token.value)}` : 'the end';
  }

  private or(): ExpressionValue {
    let left = this.and();
    while (this.peekOp('||')) {
      this.index += 1;
      const right = this.and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  private and(): ExpressionValue {
    let left = this.comparison();
    while (this.peekOp('&&')) {
      this.index += 1;
      const right = this.comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  }

  private comparison(): ExpressionValue {
    let left = this.unary();
    while (this.peekOp('==') || this.peekOp('!=')) {
      const negate = this.peekOp('!=');
      this.index += 1;
      const same = equals(left, this.unary());
      left = negate ? !same : same;
    }
    return left;
  }

  private unary(): ExpressionValue {
    if (this.peekOp('!')) {
      this.index += 1;
      return !truthy(this.unary());
    }
    return this.primary();
  }

  private primary(): ExpressionValue {
    const token = this.tokens[this.index];
    if (!token) throw new WorkflowExpressionError('unexpected end of expression');
    this.index += 1;
    if (token.kind === 'string' || token.kind === 'number') return token.value;
    if (token.kind === 'op') {
      if (token.value !== '(') throw new WorkflowExpressionError(`unexpected ${token.value}`);
      const value = this.or();
      this.expectOp(')');
      return value;
    }
    if (token.value === 'true' || token.value === 'false') return token.value === 'true';
    if (token.value === 'null') return null;
    if (this.peekOp('(')) return this.call(token.value);
    return this.path(token.value);
  }

  private call(name: string): ExpressionValue {
    const fn = functions[name.toLowerCase()];
    if (!fn) throw new WorkflowExpressionError(`unsupported function ${name}`);
    this.expectOp('(');
    const args: ExpressionValue[] = [];
    if (!this.peekOp(')')) {
      args.push(this.or());
      while (this.peekOp(',')) {
        this.index += 1;
        args.push(this.or());
      }
    }
    this.expectOp(')');
    return fn(args);
  }

  private path(name: string): ExpressionValue {
    let value: ExpressionValue = this.context[name] ?? null;
    while (this.peekOp('.')) {
      this.index += 1;
      const key = this.tokens[this.index];
      if (key?.kind !== 'word') throw new WorkflowExpressionError(`expected a property name after ${name}.`);
      this.index += 1;
      value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value[key.value] ?? null) : null;
    }
    return value;
  }
}

/**
 * Evaluates one expression (with or without `${{ }}`) in a context such as
 * `{ github: { event_name, event } }`.
 *
 * @throws WorkflowExpressionError for syntax outside the supported subset.
 */
export function evaluateWorkflowExpression(
  expression: string,
  context: Record<string, ExpressionValue>,
): ExpressionValue {
  const text = expression.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  return new Parser(tokenize(text), context).parse();
}

/** Whether a job's `if:` lets it start. */
export function evaluateWorkflowCondition(expression: string, context: Record<string, ExpressionValue>): boolean {
  return truthy(evaluateWorkflowExpression(expression, context));
}

/** A value with `${{ … }}` inside, such as `concurrency.group`, as GitHub renders it. */
export function renderWorkflowTemplate(template: string, context: Record<string, ExpressionValue>): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_match, expression: string) =>
    toText(evaluateWorkflowExpression(expression, context)),
  );
}
