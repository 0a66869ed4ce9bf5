import { CostTracker } from '../../../src/core/cost/cost-tracker.ts';
import type { AgentEvent, AgentEventType, EventOf } from '../../../src/core/events/index.ts';
import { RunProgress } from '../../../src/github/report/run-progress.ts';

export const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

type Fields<T extends AgentEventType> = Omit<EventOf<T>, 'type' | 'runId' | 'agent' | 'timestamp'>;

/** Builds events of one run with timestamps relative to `T0`. */
export function eventMaker(runId = 'run-42', agent = 'claude') {
  let now = T0;
  return {
    at(ms: number) {
      now = T0 + ms;
    },
    e<T extends AgentEventType>(type: T, fields: Fields<T>, atMs?: number): EventOf<T> {
      if (atMs !== undefined) now = T0 + atMs;
      return { type, runId, agent, timestamp: now, ...fields } as unknown as EventOf<T>;
    },
  };
}

const zeroTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };

/** A realistic start: session, a message, progress, a read and a write, costs. */
export function workingEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    m.e('session_start', { sessionId: 's-1', model: 'claude-sonnet-4-5', cwd: '/work' }, 0),
    m.e('message_start', { messageId: 'm1' }, 800),
    m.e('text_delta', { delta: 'Let me look at ', messageId: 'm1' }, 900),
    m.e('text_delta', { delta: 'the failing test.', messageId: 'm1' }, 1000),
    m.e('message_stop', { messageId: 'm1' }, 1100),
    m.e('progress', { summary: 'Reproduce the failure' }, 1500),
    m.e('tool_call_start', { toolCallId: 't1', toolName: 'read_file' }, 2000),
    m.e('tool_call_ready', { toolCallId: 't1', toolName: 'read_file', input: { path: 'src/sum.ts' } }, 2100),
    m.e(
      'tool_result',
      {
        toolCallId: 't1',
        toolName: 'read_file',
        output: 'export const sum = (a, b) => a - b;',
        isError: false,
        durationMs: 12,
      },
      2200,
    ),
    m.e('cost', { inputTokens: 1200, outputTokens: 300, usd: 0.0123, model: 'claude-sonnet-4-5' }, 2300),
    m.e('progress', { summary: 'Fix `sum` in src/sum.ts' }, 3000),
    m.e('tool_call_start', { toolCallId: 't2', toolName: 'write_file' }, 3500),
    m.e(
      'tool_call_ready',
      { toolCallId: 't2', toolName: 'write_file', input: { path: 'src/sum.ts', content: 'x' } },
      3600,
    ),
    m.e(
      'tool_result',
      { toolCallId: 't2', toolName: 'write_file', output: { path: 'src/sum.ts', bytes: 36 }, isError: false },
      3700,
    ),
    m.e('file_output', { fileName: 'sum.ts', path: '/work/src/sum.ts' }, 3700),
    m.e('cost', { inputTokens: 800, outputTokens: 200, usd: 0.0077 }, 3800),
  ];
}

/** Working, then the agent asks to run a shell command. */
export function approvalEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    ...workingEvents(),
    m.e('progress', { summary: 'Run the tests' }, 4000),
    m.e('tool_call_start', { toolCallId: 't3', toolName: 'bash' }, 4100),
    m.e('tool_call_ready', { toolCallId: 't3', toolName: 'bash', input: { command: 'npm test -- sum' } }, 4200),
    m.e(
      'approval_request',
      {
        approvalId: 'ap-7',
        toolName: 'bash',
        input: { command: 'npm test -- sum' },
        reason: 'runs a shell command',
        toolCallId: 't3',
      },
      4300,
    ),
  ];
}

/** The approval granted, the tests pass, the run completes. */
export function successEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    ...approvalEvents(),
    m.e('approval_granted', { approvalId: 'ap-7', scope: 'once', by: 'octocat' }, 20_000),
    m.e(
      'tool_result',
      { toolCallId: 't3', toolName: 'bash', output: 'Tests: 3 passed', isError: false, durationMs: 2100 },
      22_100,
    ),
    m.e('text_delta', { delta: 'Fixed: `sum` subtracted instead of adding.' }, 23_000),
    m.e(
      'run_end',
      {
        reason: 'completed',
        durationMs: 75_000,
        attempts: 1,
        totals: { ...zeroTotals, inputTokens: 5400, outputTokens: 1250, usd: 0.0421 },
      },
      75_000,
    ),
  ];
}

/** The agent crashes after an error. */
export function failureEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    ...workingEvents(),
    m.e('tool_call_start', { toolCallId: 't3', toolName: 'bash' }, 5000),
    m.e('tool_call_ready', { toolCallId: 't3', toolName: 'bash', input: { command: 'npm test' } }, 5100),
    m.e(
      'tool_result',
      { toolCallId: 't3', toolName: 'bash', output: 'Error: Cannot find module "vitest"', isError: true },
      6000,
    ),
    m.e('error', { code: 'agent_error', message: 'model overloaded, giving up', recoverable: false }, 9000),
    m.e('crash', { exitCode: 1, signal: null, stderr: 'warning: x\nfatal: model overloaded' }, 9100),
    m.e(
      'run_end',
      {
        reason: 'crashed',
        message: 'exit code 1',
        exitCode: 1,
        durationMs: 9200,
        attempts: 1,
        totals: { ...zeroTotals, inputTokens: 2000, outputTokens: 500, usd: 0.02 },
      },
      9200,
    ),
  ];
}

/** Cancelled while waiting for approval. */
export function cancelledEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    ...approvalEvents(),
    m.e('approval_denied', { approvalId: 'ap-7', reason: 'not now', by: 'hubot' }, 30_000),
    m.e(
      'run_end',
      {
        reason: 'aborted',
        message: 'cancelled by octocat',
        durationMs: 31_000,
        attempts: 1,
        totals: { ...zeroTotals, inputTokens: 2000, outputTokens: 500, usd: 0.02 },
      },
      31_000,
    ),
  ];
}

/** A progress with every event applied, cost events stamped with the running totals as the core stamps them. */
export function progressOf(events: AgentEvent[], agent = 'claude'): RunProgress {
  const progress = new RunProgress({ agent });
  for (const event of withTotals(events)) progress.apply(event);
  return progress;
}

/** The events with each cost event carrying the run's running totals, as `RunEmitter` delivers them. */
export function withTotals(events: readonly AgentEvent[]): AgentEvent[] {
  const costs = new CostTracker();
  return events.map((event) => {
    if (event.type !== 'cost') return event;
    costs.add(event);
    return { ...event, totals: costs.totals };
  });
}
