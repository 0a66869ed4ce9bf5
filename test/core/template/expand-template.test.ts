// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${NAME}` in plain strings is the template syntax under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LaunchContext } from '../../../src/core/adapter/adapter.ts';
import { TemplateError } from '../../../src/core/errors/template-error.ts';
import { expandArgs, expandEnv, expandTemplate } from '../../../src/core/template/expand-template.ts';
import { isTemplateVarName, TEMPLATE_VARS, templateVarsOf } from '../../../src/core/template/template-vars.ts';

type Vars = Record<string, string | number | undefined>;
type Env = Record<string, string | undefined>;

const vars: Vars = {
  workspacePath: '/tmp/ws',
  leaseToken: 'lease-1',
  fencingToken: 7,
  taskId: 'task-1',
  runId: 'run-42',
  mcpUrl: 'http://127.0.0.1:4000/mcp',
};
const env: Env = { HOME: '/home/me', EMPTY: '', TOKEN: 's3cret' };

function missing(template: string, v: Vars = vars, e: Env = env): TemplateError {
  try {
    expandTemplate(template, v, e);
  } catch (error) {
    if (TemplateError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected a TemplateError for ${template}`);
}

/** The reference: a plain left-to-right scan. */
function isName(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s[a] === ' ' || s[a] === '\t')) a++;
  while (b > a && (s[b - 1] === ' ' || s[b - 1] === '\t')) b--;
  return s.slice(a, b);
}

function reference(t: string, v: Vars, e: Env): string | { missing: string } {
  let out = '';
  let i = 0;
  while (i < t.length) {
    if (t.startsWith('$$', i)) {
      out += '$';
      i += 2;
      continue;
    }
    if (t.startsWith('${', i)) {
      const close = t.indexOf('}', i + 2);
      const name = close === -1 ? '' : t.slice(i + 2, close);
      if (isName(name)) {
        const value = Object.hasOwn(e, name) ? e[name] : undefined;
        if (value === undefined) return { missing: `\${${name}}` };
        out += value;
        i = close + 1;
        continue;
      }
    }
    if (t.startsWith('{{', i)) {
      const close = t.indexOf('}}', i + 2);
      const name = close === -1 ? '' : trimSpaces(t.slice(i + 2, close));
      if (isName(name)) {
        const value = Object.hasOwn(v, name) ? v[name] : undefined;
        if (value === undefined) return { missing: `{{${name}}}` };
        out += String(value);
        i = close + 2;
        continue;
      }
    }
    out += t[i];
    i++;
  }
  return out;
}

describe('expandTemplate', () => {
  it('substitutes {{name}} from vars, with spaces or tabs inside the braces', () => {
    expect(expandTemplate('--mcp={{mcpUrl}}', vars, env)).toBe('--mcp=http://127.0.0.1:4000/mcp');
    expect(expandTemplate('{{ runId }}/{{\ttaskId\t}}/{{  leaseToken}}', vars, env)).toBe('run-42/task-1/lease-1');
  });

  it('writes numbers in decimal', () => {
    expect(expandTemplate('fence={{fencingToken}}', vars, env)).toBe('fence=7');
    expect(expandTemplate('{{n}}', { n: 0 }, env)).toBe('0');
  });

  it('substitutes ${NAME} from env, an empty string being a value', () => {
    expect(expandTemplate('${HOME}/.config', vars, env)).toBe('/home/me/.config');
    expect(expandTemplate('[${EMPTY}]', vars, env)).toBe('[]');
    expect(expandTemplate('Bearer ${TOKEN} in {{workspacePath}}', vars, env)).toBe('Bearer s3cret in /tmp/ws');
  });

  it('reads $$ as a literal $', () => {
    expect(expandTemplate('$${HOME}', vars, env)).toBe('${HOME}');
    expect(expandTemplate('cost: $$5', vars, env)).toBe('cost: $5');
    expect(expandTemplate('$$$', vars, env)).toBe('$$');
    expect(expandTemplate('$$$${HOME}', vars, env)).toBe('$${HOME}');
    expect(expandTemplate('$$${HOME}', vars, env)).toBe('$/home/me');
    expect(expandTemplate('$${{runId}}', vars, env)).toBe('$run-42');
  });

  it('leaves text that is not a placeholder as it is', () => {
    for (const t of ['', 'plain', 'a $ b', 'end$', '${', '${}', '${1X}', '${A-B}', '{{}}', '{{ a b }}', '{runId}']) {
      expect(expandTemplate(t, vars, env)).toBe(t);
    }
    expect(expandTemplate('{{.Name}} {{runId}}', vars, env)).toBe('{{.Name}} run-42');
    expect(expandTemplate('{"a":{"b":1}}', vars, env)).toBe('{"a":{"b":1}}');
    expect(expandTemplate('{{{runId}}}', vars, env)).toBe('{run-42}');
  });

  it('never expands a substituted value again', () => {
    const v = { a: '{{b}}', b: 'B', d: '$$' };
    const e = { X: '${Y}', Y: 'y', Z: '{{b}}' };
    expect(expandTemplate('{{a}} ${X} ${Z} {{d}}', v, e)).toBe('{{b}} ${Y} {{b}} $$');
  });

  it('throws TemplateError naming a missing variable as written', () => {
    const error = missing('--mcp {{ mcpUrl }}', { runId: 'r' });
    expect(error).toBeInstanceOf(TemplateError);
    expect(error.code).toBe('template_variable_missing');
    expect(error.variable).toBe('{{mcpUrl}}');
    expect(error.template).toBe('--mcp {{ mcpUrl }}');
    expect(error.message).toContain('{{mcpUrl}}');
  });

  it('throws for a variable whose value is undefined', () => {
    expect(missing('{{mcpUrl}}', { ...vars, mcpUrl: undefined }).variable).toBe('{{mcpUrl}}');
  });

  it('throws for an unknown variable not among the vars', () => {
    expect(missing('{{runID}}').variable).toBe('{{runID}}');
    expect(missing('{{ sessionId }}').variable).toBe('{{sessionId}}');
  });

  it('throws TemplateError naming a missing environment variable', () => {
    expect(missing('${FOO}/bin').variable).toBe('${FOO}');
    expect(missing('${HOME}', vars, { HOME: undefined }).variable).toBe('${HOME}');
  });

  it('names the first missing variable', () => {
    expect(missing('${NOPE} {{nope}}').variable).toBe('${NOPE}');
    expect(missing('{{nope}} ${NOPE}').variable).toBe('{{nope}}');
  });

  it('does not read inherited properties as values', () => {
    for (const t of ['{{constructor}}', '{{toString}}', '{{__proto__}}', '{{hasOwnProperty}}']) {
      expect(missing(t).variable).toBe(t);
    }
    expect(missing('${constructor}').variable).toBe('${constructor}');
    expect(missing('${__proto__}').variable).toBe('${__proto__}');
  });

  it('reads process.env', () => {
    process.env.AGENT_MUX_TEMPLATE_TEST = 'from-env';
    try {
      expect(expandTemplate('${AGENT_MUX_TEMPLATE_TEST}', vars, process.env)).toBe('from-env');
      expect(missing('${AGENT_MUX_TEMPLATE_TEST_UNSET}', vars, process.env).variable).toBe(
        '${AGENT_MUX_TEMPLATE_TEST_UNSET}',
      );
    } finally {
      delete process.env.AGENT_MUX_TEMPLATE_TEST;
    }
  });
});

describe('expandArgs', () => {
  it('expands every argument', () => {
    expect(expandArgs(['--cwd', '{{workspacePath}}', '--home=${HOME}', 'plain'], vars, env)).toEqual([
      '--cwd',
      '/tmp/ws',
      '--home=/home/me',
      'plain',
    ]);
  });

  it('throws TemplateError for a missing variable in any argument', () => {
    expect(() => expandArgs(['ok', '{{nope}}'], vars, env)).toThrow(TemplateError);
  });
});

describe('expandEnv', () => {
  it('expands values and keeps names', () => {
    const out = expandEnv({ RUN_ID: '{{runId}}', PATH_COPY: '${HOME}:{{workspacePath}}', '{{runId}}': 'x' }, vars, env);
    expect(out).toEqual({ RUN_ID: 'run-42', PATH_COPY: '/home/me:/tmp/ws', '{{runId}}': 'x' });
  });

  it('keeps a __proto__ name as an own property', () => {
    const input = JSON.parse('{"__proto__":"{{runId}}"}') as Record<string, string>;
    const out = expandEnv(input, vars, env);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('run-42');
  });

  it('throws TemplateError for a missing variable', () => {
    expect(() => expandEnv({ A: '${NOPE}' }, vars, env)).toThrow(TemplateError);
  });
});

describe('template variables', () => {
  it('lists the core variables', () => {
    expect([...TEMPLATE_VARS].sort()).toEqual(
      ['fencingToken', 'leaseToken', 'mcpUrl', 'runId', 'taskId', 'workspacePath'].sort(),
    );
    expect(isTemplateVarName('runId')).toBe(true);
    expect(isTemplateVarName('HOME')).toBe(false);
  });

  it('takes every listed variable from a launch context, so every one expands', () => {
    const context: LaunchContext = {
      request: { prompt: 'p', cwd: '/w' },
      runId: 'r1',
      taskId: 't1',
      leaseToken: 'l1',
      leaseEpoch: 3,
      mcpUrl: '',
      mcpToken: '',
      workspacePath: '/w',
      env: {},
      debug: false,
    };
    const v = templateVarsOf(context);
    expect(Object.keys(v).sort()).toEqual([...TEMPLATE_VARS].sort());
    const all = TEMPLATE_VARS.map((name) => `{{${name}}}`).join('|');
    expect(expandTemplate(all, v, {})).toBe('/w|l1|3|t1|r1|');
  });
});

describe('properties', () => {
  const names = ['runId', 'mcpUrl', 'x', '_', 'A1', 'HOME', 'FOO', 'constructor', '__proto__', 'toString'];
  const piece = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom('$', '$$', '${', '{', '{{', '}', '}}', ' ', '\t', '1', '-', '.', ...names),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
  );
  const template = fc.array(piece, { maxLength: 16 }).map((parts) => parts.join(''));
  const value = fc.oneof(
    fc.constantFrom('{{runId}}', '${HOME}', '$$', '$', '', 'v'),
    fc.string({ maxLength: 6 }),
    fc.integer(),
  );
  const varsArb = fc.dictionary(fc.constantFrom(...names), fc.option(value, { nil: undefined }));
  const envArb = fc.dictionary(
    fc.constantFrom(...names),
    fc.option(fc.oneof(fc.constantFrom('{{x}}', '${FOO}', '$$'), fc.string({ maxLength: 6 })), { nil: undefined }),
  );

  it('equals the reference scan, and throws nothing but TemplateError', () => {
    fc.assert(
      fc.property(template, varsArb, envArb, (t, v, e) => {
        const expected = reference(t, v, e);
        let actual: string | { missing: string };
        try {
          actual = expandTemplate(t, v, e);
        } catch (error) {
          if (!TemplateError.isInstance(error)) throw error;
          expect(error.template).toBe(t);
          actual = { missing: error.variable };
        }
        expect(actual).toEqual(expected);
      }),
      { numRuns: 10_000 },
    );
  });

  it('leaves any template without $ or {{ unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), varsArb, envArb, (t, v, e) => {
        fc.pre(!t.includes('$') && !t.includes('{{'));
        expect(expandTemplate(t, v, e)).toBe(t);
      }),
      { numRuns: 10_000 },
    );
  });

  it('substitutes any value literally', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (a, b) => {
          expect(expandTemplate('<{{ a }}|${B}>', { a }, { B: b })).toBe(`<${a}|${b}>`);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('expandArgs is expandTemplate on each argument', () => {
    fc.assert(
      fc.property(fc.array(template, { maxLength: 4 }), varsArb, envArb, (args, v, e) => {
        const one = (t: string) => {
          try {
            return expandTemplate(t, v, e);
          } catch (error) {
            if (TemplateError.isInstance(error)) return null;
            throw error;
          }
        };
        const each = args.map(one);
        if (each.includes(null)) expect(() => expandArgs(args, v, e)).toThrow(TemplateError);
        else expect(expandArgs(args, v, e)).toEqual(each);
      }),
      { numRuns: 10_000 },
    );
  });
});
