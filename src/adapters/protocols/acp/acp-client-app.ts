import { type ClientConnection, client, PROTOCOL_VERSION, type Stream } from '@agentclientprotocol/sdk';
import { type AcpFilesContext, readTextFile, writeTextFile } from './acp-files.ts';
import { type AcpPermissionContext, answerPermission } from './acp-permission.ts';

export { PROTOCOL_VERSION };

/** What the client side answers with: the run's permission questions and its file tools. */
export interface AcpClientHandlers {
  permission: Omit<AcpPermissionContext, 'reasonFor'> & {
    reasonFor?: (sessionId: string, toolCallId: string) => Promise<string | undefined>;
  };
  files: AcpFilesContext;
  /** Tracks work a request started, so the run waits for it before it ends. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Tracks an open permission question (answered `cancelled` on a stop). */
  asking<T>(work: Promise<T>): Promise<T>;
}

/**
 * The SDK's `ClientApp` connected over `stream`: permission requests go to `answerPermission`,
 * file requests to the run's tool host. Loaded on first use (`import()`), so that runs of agents
 * that do not speak ACP never load the SDK, and ACP runs load it while the agent starts.
 */
export function connectAcpClient(stream: Stream, handlers: AcpClientHandlers): ClientConnection {
  const { permission, files, track, asking } = handlers;
  const { reasonFor, ...answer } = permission;
  return (
    client()
      .onRequest('session/request_permission', ({ params }) =>
        asking(
          answerPermission(params, {
            ...answer,
            ...(reasonFor ? { reasonFor: (toolCallId: string) => reasonFor(params.sessionId, toolCallId) } : {}),
          }),
        ),
      )
      .onRequest('fs/read_text_file', ({ params }) => track(readTextFile(params, files)))
      .onRequest('fs/write_text_file', ({ params }) => track(writeTextFile(params, files)))
      // The translator reports updates from the same lines; they do not reach the SDK.
      .onNotification('session/update', () => undefined)
      .connect(stream)
  );
}
