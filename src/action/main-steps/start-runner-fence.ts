import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { execa } from 'execa';
import { findOnPath } from '../../core/host/find-on-path.ts';
import { probeFence } from '../../core/sandbox/index.ts';
import { looksLikeRequest } from '../../github/trigger/looks-like-request.ts';
import { defaultTriggerPhrase } from '../../github/trigger/parse-command.ts';
import { readTriggerEvent } from '../../github/trigger/read-trigger-event.ts';
import { actionRoot } from '../action-root.ts';
import { decideRunnerFence, findRunnerRoot, type RunnerFence } from '../runner-fence.ts';
import type { ActionContext } from './action-context.ts';

/** agent-mux's own code: the directory above `dist/` (its checkout under the runner's `_actions`). */
const ACTION_ROOT = actionRoot(import.meta.url);

/**
 * Starts setting the fence up (bubblewrap found, probed, lifted from AppArmor's restriction) while
 * the event is decided, when the event looks like a request; returns the decision, awaited once
 * the event asks for a run (and only then started, for an event that did not look like one).
 */
export function startRunnerFence(ctx: ActionContext): () => Promise<RunnerFence> {
  const { env, inputs } = ctx;
  const decide = () =>
    decideRunnerFence(env, inputs.fence, {
      findBwrap: () => findOnPath('bwrap', env.PATH),
      probe: (fence) => probeFence(fence, env.RUNNER_TEMP || tmpdir()),
      sudo: runSudo,
      log: (line) => core.info(line),
      actionRoot: ACTION_ROOT,
      runnerRoot: findRunnerRoot(),
    });
  const ahead = eventLooksLikeRequest(ctx.eventName, ctx.payload, inputs.triggerPhrase) ? decide() : undefined;
  ahead?.catch(() => {}); // awaited once the event asks for a run
  return () => ahead ?? decide();
}

/** `sudo -n …` (the runner's passwordless sudo on GitHub-hosted runners); never throws. */
async function runSudo(args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const result = await execa('sudo', ['-n', ...args], { reject: false, all: true, timeout: 180_000, stdin: 'ignore' });
  return { ok: result.exitCode === 0, output: String(result.all ?? result.message ?? '') };
}

/** Whether the saved event looks like a request for a run (`looksLikeRequest`); false when it cannot be read. */
function eventLooksLikeRequest(eventName: string, payload: unknown, phrase: string | undefined): boolean {
  try {
    const event = readTriggerEvent(eventName, payload);
    return event !== undefined && looksLikeRequest(event, phrase ?? defaultTriggerPhrase);
  } catch {
    return false; // decideTrigger says why
  }
}
