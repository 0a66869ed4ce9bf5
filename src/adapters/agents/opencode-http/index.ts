import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { opencodeHttpAdapter } from './opencode-http-adapter.ts';

export {
  type OpenCodeHttpAdapterOptions,
  opencodeHttpAdapter,
} from './opencode-http-adapter.ts';
export { type OpenCodeHttpSessionOptions, openOpenCodeHttpSession, splitModel } from './opencode-http-session.ts';
export { type OpenCodeHttpTranslatorState, openCodeHttpTranslator } from './opencode-http-translator.ts';
export { freePort, type OpenCodeServer, startOpenCodeServer } from './opencode-server.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [opencodeHttpAdapter],
});
