import { TemplateError } from '../errors/template-error.ts';

export type TemplateVars = Readonly<Record<string, string | number | undefined>>;
export type TemplateEnv = Readonly<Record<string, string | undefined>>;

/**
 * One pass over the template, so a substituted value is never expanded again. In order of precedence:
 * `$$` (a literal `$`), `${NAME}` (environment), `{{ name }}` (variable; spaces and tabs allowed inside).
 */
const PLACEHOLDER = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{\{[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\}\}/g;

/**
 * Expands a template from an adapter's configuration.
 *
 * - `{{name}}` / `{{ name }}` becomes `vars[name]` (numbers as decimal strings). The core's variables are
 *   listed in `TEMPLATE_VARS`.
 * - `${NAME}` becomes `env[NAME]`; an empty string is a value.
 * - `$$` is a literal `$`, so `$${NAME}` gives `${NAME}` and `$$$` gives `$$`.
 * - A variable that is not an own key of `vars` (or `env`), or whose value is `undefined`, throws
 *   `TemplateError` naming it as written (`{{mcpUrl}}`, `${FOO}`), so a run fails before anything is spawned.
 * - Text that is not one of these forms stays as it is: a lone `$`, `${1X}`, `{{ a b }}`, `{{.Name}}`.
 * - Substituted values are never expanded again: a value containing `{{x}}` stays literal.
 */
export function expandTemplate(template: string, vars: TemplateVars, env: TemplateEnv): string {
  if (!template.includes('$') && !template.includes('{{')) return template;
  return template.replace(PLACEHOLDER, (match: string, envName?: string, varName?: string) => {
    if (envName !== undefined) {
      const value = Object.hasOwn(env, envName) ? env[envName] : undefined;
      if (value === undefined) throw new TemplateError(`\${${envName}}`, template);
      return value;
    }
    if (varName !== undefined) {
      const value = Object.hasOwn(vars, varName) ? vars[varName] : undefined;
      if (value === undefined) throw new TemplateError(`{{${varName}}}`, template);
      return String(value);
    }
    return match === '$$' ? '$' : match;
  });
}

/** Expands every argument with `expandTemplate`. */
export function expandArgs(args: readonly string[], vars: TemplateVars, env: TemplateEnv): string[] {
  return args.map((arg) => expandTemplate(arg, vars, env));
}

/** Expands every value (not the names) of an environment with `expandTemplate`, `${NAME}` from `processEnv`. */
export function expandEnv(
  env: Readonly<Record<string, string>>,
  vars: TemplateVars,
  processEnv: TemplateEnv,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, expandTemplate(value, vars, processEnv)]),
  );
}
