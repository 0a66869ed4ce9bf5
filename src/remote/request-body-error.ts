import { codedError } from '../core/errors/coded-error.ts';

/** A request body the remote server cannot read: too large or not JSON (answered with 400). */
export class RequestBodyError extends codedError('RequestBodyError', 'remote_bad_request') {}
