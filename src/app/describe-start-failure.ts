/** What an Octokit `RequestError` carries that matters here. */
interface RequestFailure {
  status: number;
  message: string;
  /** Present when GitHub answered; absent when the request never got an answer (network). */
  response?: { data?: unknown } | undefined;
}

function isRequestFailure(error: unknown): error is RequestFailure {
  return (
    error instanceof Error && typeof (error as { status?: unknown }).status === 'number' && error.name === 'HttpError'
  );
}

/** GitHub's `{ message }` of an error answer, else the error's own message. */
function githubMessage(error: RequestFailure): string {
  const data = error.response?.data;
  const message = typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '' ? message : error.message;
}

/**
 * One line saying why a start-up request to GitHub failed and what to check: 401 (a wrong `APP_ID` or
 * private key), 404 (no such app on this host), other answers, or no answer at all (the host).
 */
export function describeStartFailure(error: unknown, host: string): string {
  if (!isRequestFailure(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return `${message} (is PRIVATE_KEY a valid PEM key?)`;
  }
  if (error.response === undefined) {
    return `no answer from ${host}: ${error.message} (check GHE_HOST / GHE_PROTOCOL and the network)`;
  }
  const said = githubMessage(error);
  switch (error.status) {
    case 401:
      return `${host} answered 401 "${said}": the APP_ID or the private key is wrong (or the key was deleted)`;
    case 403:
      return `${host} answered 403 "${said}"`;
    case 404:
      return `${host} answered 404 "${said}": no GitHub App with this APP_ID there (check APP_ID and GHE_HOST)`;
    default:
      return `${host} answered ${error.status} "${said}"`;
  }
}

/**
 * True when GitHub's answer to a start-up request says the app's credentials are wrong (401) or the
 * app does not exist there (404): the process reads APP_ID and the key once, so no retry can heal it.
 */
export function isPermanentStartFailure(error: unknown): boolean {
  return isRequestFailure(error) && error.response !== undefined && (error.status === 401 || error.status === 404);
}
