import type { AgentEvent } from '../../core/events/index.ts';
import type { RunReporter } from '../report/run-reporter.ts';

/** Takes a run's events and notes before its reporter exists, and hands them over, in order, once it does. */
export interface BufferedReporter {
  onEvent(event: AgentEvent): void;
  note(line: string): void;
  /** Replays what was buffered into `reporter`, then forwards everything to it. A second call is ignored. */
  attach(reporter: RunReporter): void;
  /** How many events and notes wait for a reporter. */
  readonly buffered: number;
}

type Item = { event: AgentEvent } | { note: string };

/**
 * A reporter stand-in for the first moments of a run: the agent may start (and speak) before the
 * check run and the tracking comment exist, and nothing it says may be lost.
 */
export function createBufferedReporter(): BufferedReporter {
  let target: RunReporter | undefined;
  let items: Item[] = [];
  return {
    onEvent(event) {
      if (target) target.onEvent(event);
      else items.push({ event });
    },
    note(line) {
      if (target) target.note(line);
      else items.push({ note: line });
    },
    attach(reporter) {
      if (target) return;
      for (const item of items) {
        if ('event' in item) reporter.onEvent(item.event);
        else reporter.note(item.note);
      }
      items = [];
      target = reporter;
    },
    get buffered() {
      return items.length;
    },
  };
}
