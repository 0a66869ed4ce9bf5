import type { LaunchContext } from '../adapter/adapter.ts';

/** The `{{name}}` variables the core provides to adapter templates (args, env, URLs). */
export const TEMPLATE_VARS = ['workspacePath', 'leaseToken', 'fencingToken', 'taskId', 'runId', 'mcpUrl'] as const;

export type TemplateVarName = (typeof TEMPLATE_VARS)[number];

export function isTemplateVarName(name: string): name is TemplateVarName {
  return (TEMPLATE_VARS as readonly string[]).includes(name);
}

/** The template variables of one launch. */
export function templateVarsOf(context: LaunchContext): Record<TemplateVarName, string | number> {
  return {
    workspacePath: context.workspacePath,
    leaseToken: context.leaseToken,
    fencingToken: context.leaseEpoch,
    taskId: context.taskId,
    runId: context.runId,
    mcpUrl: context.mcpUrl,
  };
}
