import type { Translator } from '../../core/adapter/index.ts';
import type { EventDraft } from '../../core/events/index.ts';
import { type TextOutputState, textOutputTranslator } from '../generic-cli/text-output-translator.ts';

export interface GenericJobTranslatorOptions {
  /** The deadline wrapper's marker (see `deadlineWrapper`). */
  marker: string;
  /** `max_runtime` as configured, for messages. */
  maxRuntime: string;
}

/**
 * generic-job's translator: stdout lines are the text of one message (as generic-cli's), closed with the
 * whole text when the job exits; stderr lines are logs, except the deadline wrapper's own reports, which
 * fail the run: `timeout` (the job outlived `max_runtime`) and `spawn_failed` (the job could not start).
 */
export function genericJobTranslator(options: GenericJobTranslatorOptions): Translator<TextOutputState> {
  const prefix = `${options.marker}:`;
  return {
    ...textOutputTranslator,
    stderr(line, state): EventDraft[] {
      if (!line.startsWith(prefix)) return [{ type: 'log', source: 'stderr', line }];
      const report = line.slice(prefix.length);
      if (report === 'timeout') {
        const message = `the job ran longer than its max_runtime of ${options.maxRuntime} and was killed`;
        state.outcome = { status: 'failed', message };
        return [{ type: 'error', code: 'timeout', message, recoverable: false }];
      }
      if (report.startsWith('spawn_failed:')) {
        const message = `cannot start the job: ${report.slice('spawn_failed:'.length)}`;
        state.outcome = { status: 'failed', message };
        return [{ type: 'error', code: 'spawn_failed', message, recoverable: false }];
      }
      return [{ type: 'log', source: 'stderr', line }];
    },
  };
}
