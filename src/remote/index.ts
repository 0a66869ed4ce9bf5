export { CallerToolHost, type ToolCallRecord } from './caller-tool-host.ts';
export { type AgentRecord, type RecordCost, RecordsFromEvents } from './records-from-events.ts';
export { type InputRecord, RemoteSession, type RemoteSessionOptions } from './remote-session.ts';
export { RequestBodyError } from './request-body-error.ts';
export {
  type RemoteServerAuth,
  type RemoteServerHandle,
  type RemoteServerOptions,
  startRemoteServer,
} from './start-remote-server.ts';
