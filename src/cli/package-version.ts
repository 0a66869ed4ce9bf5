import packageJson from '../../package.json' with { type: 'json' };

/** The version of agent-mux, from package.json (the bundler inlines it into dist/cli). */
export const packageVersion: string = packageJson.version;
