/**
 * The agent-mux Probot app. Run it with `probot run ./src/app/index.ts` (`npm start`, the Dockerfile),
 * or mount it on a serverless host with `createNodeMiddleware(agentMuxApp, { probot })`.
 */
import { createAgentMuxApp } from './create-agent-mux-app.ts';

export { createNodeMiddleware } from 'probot';
export { READINESS_PATH, type ReadinessState } from './app-readiness.ts';
export type { AppRuntime } from './app-runtime.ts';
export { type AppSettings, readAppSettings } from './app-settings.ts';
export { AppStartError } from './app-start-error.ts';
export { type AgentMuxApp, type AgentMuxAppOptions, createAgentMuxApp } from './create-agent-mux-app.ts';

/**
 * The app with every setting from the environment; SIGTERM / SIGINT stop it before the process exits,
 * and start-up's garbage is collected before it says ready.
 */
export const agentMuxApp = createAgentMuxApp({ stopOnSignals: true, collectStartUpGarbage: true });

export default agentMuxApp;
