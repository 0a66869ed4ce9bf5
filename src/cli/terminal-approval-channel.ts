import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '../core/tools/approval-channel.ts';

/**
 * Asks the person at the terminal. Questions are asked one at a time; an abort (the tool
 * host's timeout, or the run ending) withdraws the question and denies. Ctrl-C at the question
 * (which the terminal, in raw mode while asking, hands to readline instead of sending SIGINT)
 * calls `onInterrupt`, as SIGINT would elsewhere, and withdraws the question.
 */
export function terminalApprovalChannel(options: {
  input: Readable;
  output: Writable;
  /** Called around the question so a spinner can get out of the way. */
  onAsk?: (asking: boolean) => void;
  /** Ctrl-C at the question: the run command stops the run (exit 130), as on SIGINT. */
  onInterrupt?: () => void;
}): ApprovalChannel {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    if (signal.aborted) return { kind: 'deny', reason: 'the run no longer waits for this approval' };
    options.onAsk?.(true);
    const rl = createInterface({ input: options.input, output: options.output, terminal: true });
    const interrupt = new AbortController();
    rl.on('SIGINT', () => {
      options.output.write('^C\n');
      interrupt.abort();
      options.onInterrupt?.();
    });
    const asking = AbortSignal.any([signal, interrupt.signal]);
    try {
      const input = JSON.stringify(request.input, null, 2) ?? '';
      options.output.write(
        `\nThe agent wants to run ${request.toolName}${request.reason ? ` (${request.reason})` : ''}:\n${input}\n`,
      );
      for (;;) {
        const answer = (await rl.question('Allow? [y]es once, [a]lways, [n]o: ', { signal: asking }))
          .trim()
          .toLowerCase();
        if (answer === 'y' || answer === 'yes') return { kind: 'approve', scope: 'once', by: 'terminal' };
        if (answer === 'a' || answer === 'always') return { kind: 'approve', scope: 'always', by: 'terminal' };
        if (answer === 'n' || answer === 'no') {
          const reason = (await rl.question('Reason (optional): ', { signal: asking })).trim();
          return { kind: 'deny', reason: reason || 'denied at the terminal', by: 'terminal' };
        }
      }
    } catch {
      if (interrupt.signal.aborted) return { kind: 'deny', reason: 'interrupted at the terminal', by: 'terminal' };
      return { kind: 'deny', reason: 'the question was withdrawn', timedOut: signal.aborted };
    } finally {
      rl.close();
      options.onAsk?.(false);
    }
  };
  return {
    request(request, signal) {
      const answer = queue.then(() => ask(request, signal));
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
