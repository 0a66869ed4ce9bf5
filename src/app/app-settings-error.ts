import { AgentMuxError } from '../core/errors/agent-mux-error.ts';

/** The app's environment has invalid settings; `problems` names each variable. */
export class AppSettingsError extends AgentMuxError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super('app_settings_invalid', `invalid agent-mux app settings:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'AppSettingsError';
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is AppSettingsError {
    return AgentMuxError.isInstance(error) && error.code === 'app_settings_invalid';
  }
}
