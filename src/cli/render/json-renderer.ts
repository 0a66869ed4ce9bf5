import type { Writable } from 'node:stream';
import type { AgentEvent } from '../../core/events/index.ts';

/** One normalized event per line, nothing else on stdout. A stable contract for scripts. */
export function jsonRenderer(out: Writable): (event: AgentEvent) => void {
  return (event) => {
    out.write(`${JSON.stringify(event)}\n`);
  };
}
