import { AgentMuxError } from './agent-mux-error.ts';

/** Any constructor of `T`, as `this` is in a static method called on the class. */
type ConstructorOf<T> = abstract new (...args: never[]) => T;

/**
 * The base of an agent-mux error class with one fixed `name` and `code`: its constructor takes the
 * message (and `cause`), and its static `isInstance` narrows to the class it is called on by that
 * code, so it holds across two copies of the module as {@link AgentMuxError.isInstance} does.
 *
 * ```ts
 * export class GitError extends codedError('GitError', 'git_failed') { … }
 * GitError.isInstance(error); // error is GitError
 * ```
 */
export function codedError(name: string, code: string) {
  abstract class CodedError extends AgentMuxError {
    constructor(message: string, options?: { cause?: unknown }) {
      super(code, message, options);
      this.name = name;
    }

    /** True for an agent-mux error with this class's code, even from another copy of the module. */
    static override isInstance<T>(this: ConstructorOf<T>, error: unknown): error is T {
      return AgentMuxError.isInstance(error) && error.code === code;
    }
  }
  return CodedError;
}
