import { type ParseArgsConfig, parseArgs } from 'node:util';
import { didYouMean } from '../core/errors/did-you-mean.ts';
import { UsageError } from './usage-error.ts';

/**
 * `parseArgs` of node:util, strict, with an unknown option turned into a {@link UsageError} that
 * suggests the closest known one: `unknown option --adpater (did you mean --adapter?)`. Other
 * parseArgs errors (a missing value, a stray argument) are passed on; `main` reports them as usage errors.
 *
 * @throws UsageError for an unknown option.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, ...config });
  } catch (error) {
    const unknown = unknownOption(error);
    if (unknown === undefined) throw error;
    const names = Object.keys(config.options ?? {});
    const suggestion = didYouMean(unknown.replace(/^-+/, '').split('=')[0] ?? '', names);
    throw new UsageError(`unknown option ${unknown}${suggestion ? ` (did you mean --${suggestion}?)` : ''}`);
  }
}

/** The option that node's parseArgs refused as unknown (ERR_PARSE_ARGS_UNKNOWN_OPTION), if that is the error. */
function unknownOption(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  return /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
}
