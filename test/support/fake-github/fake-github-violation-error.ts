import { AgentMuxError } from '../../../src/core/errors/agent-mux-error.ts';

const marker = Symbol.for('agent-mux.fake-github-violation-error');

/** Thrown by `assertNoViolations` when a request or a response broke GitHub's REST description. */
export class FakeGitHubViolationError extends AgentMuxError {
  readonly [marker] = true;
  /** The readable violations, one per request or response. */
  readonly violations: string[];

  constructor(violations: string[]) {
    super(
      'fake_github_violation',
      `the fake GitHub saw ${violations.length} violation(s) of the REST description:\n${violations.map((v) => `- ${v}`).join('\n')}`,
    );
    this.name = 'FakeGitHubViolationError';
    this.violations = violations;
  }

  /** True for this error, even from another copy of the module. */
  static override isInstance(error: unknown): error is FakeGitHubViolationError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
