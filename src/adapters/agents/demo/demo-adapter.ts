import { randomUUID } from 'node:crypto';
import {
  ADAPTER_SPECIFICATION_VERSION,
  type Adapter,
  type AgentSession,
  type SessionContext,
} from '../../../core/adapter/index.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import { runDemoScript } from './demo-script.ts';
import { demoSteps } from './demo-steps.ts';
import { DEMO_NOTE_FILE } from './render-demo-note.ts';

export { DEMO_README } from './demo-script.ts';

export interface DemoAdapterOptions {
  /** Pause between the scripted steps, so a terminal shows them happen. Default 250 ms. */
  stepDelayMs?: number;
}

/**
 * A scripted agent that needs no key, program or network. It goes through what real agents
 * do — session, streamed text, tool calls through the run's tool host, an approval for a
 * write, a file edit and a cost report — so that a newcomer sees the whole flow. It fixes the
 * typos "projcet" and "teh" in README.md; where there are none it writes {@link DEMO_NOTE_FILE},
 * restating the request, so that a run on any repository changes something.
 */
export function demoAdapter(options: DemoAdapterOptions = {}): Adapter {
  const delay = options.stepDelayMs ?? 250;
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'demo',
    displayName: 'Demo (scripted, no key needed)',
    // A script: it reads no file as instructions.
    readsFromRepository: [],
    capabilities: cliCapabilities({
      resume: false,
      fork: false,
      thinking: 'yes',
      mcp: false,
      approvals: 'relay',
      sessionPersistence: 'none',
      streaming: 'full',
    }),
    costModel: 'demo/scripted',
    // It calls the run's tool host itself: served remotely, its tools are the caller's.
    callerTools: 'native',
    launch: { kind: 'session', open: async (ctx) => openDemoSession(ctx, delay) },
  };
}

/** Opens a demo session: the script runs at once; a stop ends it at its next step. */
async function openDemoSession(ctx: SessionContext, delay: number): Promise<AgentSession> {
  let stopped: string | undefined;
  const done = runDemoScript(
    ctx,
    demoSteps(ctx, delay, () => stopped),
    `demo_${randomUUID()}`,
  );
  done.catch(() => undefined);
  return {
    done,
    stop: async (reason) => {
      stopped = reason;
      await done.catch(() => undefined);
    },
  };
}
