export * from './redactor.ts';
export { MIN_ENCODED_SECRET_LENGTH } from './secret-variants.ts';
export * from './stream-redactor.ts';
