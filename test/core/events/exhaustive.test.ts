import { describe, expect, it } from 'vitest';
import { exhaustive } from '../../../src/core/events/exhaustive.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { isQuiet } from '../../../src/github/report/quiet-events.ts';

/** Every event type: the key list is checked by the compiler against the union, both ways. */
const everyType = {
  auth_error: 1,
  rate_limit_error: 1,
  context_exceeded: 1,
  crash: 1,
  error: 1,
  debug: 1,
  log: 1,
  message_start: 1,
  text_delta: 1,
  message_stop: 1,
  thinking_start: 1,
  thinking_delta: 1,
  thinking_stop: 1,
  image_output: 1,
  file_output: 1,
  progress: 1,
  comment: 1,
  notice: 1,
  cost: 1,
  run_end: 1,
  session_start: 1,
  session_resume: 1,
  session_fork: 1,
  turn_start: 1,
  turn_end: 1,
  tool_call_start: 1,
  tool_input_delta: 1,
  tool_call_ready: 1,
  tool_result: 1,
  mcp_tool_call_start: 1,
  mcp_tool_result: 1,
  skill_loaded: 1,
  skill_invoked: 1,
  plugin_loaded: 1,
  plugin_invoked: 1,
  approval_request: 1,
  approval_granted: 1,
  approval_denied: 1,
} satisfies Record<AgentEvent['type'], 1>;

describe('exhaustive', () => {
  it('compiles only where every member has its case (the type check of this file is the test)', () => {
    type Two = { type: 'a' } | { type: 'b' };
    const handled = (value: Two): string => {
      switch (value.type) {
        case 'a':
        case 'b':
          return value.type;
        default:
          exhaustive(value);
          return '';
      }
    };
    const forgetful = (value: Two): string => {
      switch (value.type) {
        case 'a':
          return 'a';
        default:
          // @ts-expect-error 'b' has no case: this is what a new event type meets in each switch.
          exhaustive(value);
          return '';
      }
    };
    expect([handled({ type: 'b' }), forgetful({ type: 'b' })]).toEqual(['b', '']);
  });

  it('isQuiet decides every event type: nine are quiet, the rest are not', () => {
    const quiet = Object.keys(everyType).filter((type) => isQuiet({ type } as AgentEvent));
    expect(quiet.sort()).toEqual(
      [
        'debug',
        'plugin_loaded',
        'session_fork',
        'skill_loaded',
        'thinking_delta',
        'thinking_start',
        'thinking_stop',
        'tool_input_delta',
        'turn_start',
      ].sort(),
    );
  });
});
