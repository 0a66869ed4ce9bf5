export * from './load-repo-config.ts';
export * from './parse-repo-config.ts';
export * from './repo-config-json-schema.ts';
export * from './repo-config-read-error.ts';
export * from './repo-config-schema.ts';
