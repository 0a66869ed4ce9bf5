import { AgentMuxError } from './agent-mux-error.ts';

/** A template names a variable that has no value; raised before anything is spawned. */
export class TemplateError extends AgentMuxError {
  readonly variable: string;
  readonly template: string;

  constructor(variable: string, template: string) {
    super('template_variable_missing', `template variable ${variable} has no value (in "${template}")`);
    this.name = 'TemplateError';
    this.variable = variable;
    this.template = template;
  }

  static override isInstance(error: unknown): error is TemplateError {
    return AgentMuxError.isInstance(error) && error.code === 'template_variable_missing';
  }
}
