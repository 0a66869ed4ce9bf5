import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A branch prefix or issue number that cannot make a valid git branch name. */
export class BranchNameError extends AgentMuxError {
  readonly branch: string;

  constructor(branch: string) {
    super('branch_name_invalid', `"${branch}" is not a valid git branch name`);
    this.name = 'BranchNameError';
    this.branch = branch;
  }

  static override isInstance(error: unknown): error is BranchNameError {
    return AgentMuxError.isInstance(error) && error.code === 'branch_name_invalid';
  }
}
