import type { AcpSessionLog } from '../../protocols/acp/acp-session-log.ts';
import { codexHome } from './codex-auth.ts';
import { findCodexRollouts, readRolloutCalls, readRolloutFile, rolloutCallFailed } from './codex-rollout.ts';

/** How long a permission request waits for its call to reach the rollout (Codex writes it just before asking). */
const REASON_WAIT_MS = 1000;
const REASON_POLL_MS = 100;
/** The most of a refused command's output kept for the report. */
const MAX_OUTPUT_CHARS = 2000;

/**
 * Codex's rollout read for codex-acp (Codex 0.169.0, codex-acp 2.6.0): the `justification` the model
 * gave with an escalation request, and the commands its sandbox refused, which reach an ACP v1
 * client as nothing at all (no `tool_call`) — a run would otherwise look as if it tried nothing.
 */
export const codexSessionLog: AcpSessionLog = {
  async reason(env, sessionId, toolCallId) {
    const home = codexHome(env);
    const deadline = Date.now() + REASON_WAIT_MS;
    // The rollout is looked for until it exists, then only read again: not a directory walk per poll.
    let file: string | undefined;
    for (;;) {
      file ??= (await findCodexRollouts(home, sessionId).catch(() => []))[0];
      const calls = file ? await readRolloutFile(home, file) : [];
      const call = calls.find((c) => c.callId === toolCallId);
      if (call) return call.justification;
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, REASON_POLL_MS));
    }
  },
  async unreported(env, sessionId, reported) {
    const calls = await readRolloutCalls(codexHome(env), sessionId);
    return calls
      .filter((call) => !reported.has(call.callId) && rolloutCallFailed(call))
      .map((call) => ({
        toolCallId: call.callId,
        title: call.command ?? call.tool,
        kind: call.command === undefined ? 'other' : 'execute',
        output: (call.output ?? '').slice(0, MAX_OUTPUT_CHARS),
        ...(call.exitCode !== undefined ? { exitCode: call.exitCode } : {}),
      }));
  },
};
