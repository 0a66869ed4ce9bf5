import { AgentMuxError } from './agent-mux-error.ts';

export interface ConfigIssue {
  /** Dotted path of the field, e.g. `adapters.pi.baseUrl`. Empty for the whole document. */
  path: string;
  message: string;
  /** 1-based line in the file, when the source could be mapped. */
  line?: number;
}

/** Invalid configuration: names every bad field and the file it came from. */
export class ConfigError extends AgentMuxError {
  readonly file: string;
  readonly issues: readonly ConfigIssue[];

  constructor(file: string, issues: readonly ConfigIssue[], options?: { cause?: unknown }) {
    super('config_invalid', ConfigError.format(file, issues), options);
    this.name = 'ConfigError';
    this.file = file;
    this.issues = issues;
  }

  static format(file: string, issues: readonly ConfigIssue[]): string {
    return issues
      .map((i) => `${i.path || '(root)'}: ${i.message} (${file}${i.line === undefined ? '' : `:${i.line}`})`)
      .join('\n');
  }

  static override isInstance(error: unknown): error is ConfigError {
    return AgentMuxError.isInstance(error) && error.code === 'config_invalid';
  }
}
