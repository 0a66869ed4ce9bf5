import { codedError } from '../../core/errors/coded-error.ts';

/** The store's configuration cannot be used (an unsafe PostgreSQL schema name, an unsupported `DATABASE_URL`). */
export class StoreConfigError extends codedError('StoreConfigError', 'store_config_invalid') {}
