export { type AgentMuxRemoteOptions, agentMuxRemoteAdapter } from './agent-mux-remote-adapter.ts';
export { type RemoteInvocation, wrapInvocation } from './remote-invocation.ts';
export { remoteTranslator } from './remote-translator.ts';
