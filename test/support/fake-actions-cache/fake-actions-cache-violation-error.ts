/** A request the real cache service or Blob storage would reject: the client under test is wrong. */
export class FakeActionsCacheViolationError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'FakeActionsCacheViolationError';
    this.status = status;
  }

  static isInstance(error: unknown): error is FakeActionsCacheViolationError {
    return error instanceof Error && error.name === 'FakeActionsCacheViolationError';
  }
}
