#!/usr/bin/env node
// A reference agent for agent-mux's Process adapter (the json-lines stdio protocol of
// seed 001), in the spirit of the seed's 30-line Python example. It reads its task through
// the `read_task` tool, writes a file through `write_file` (which may need an approval),
// reports progress with a running cost, obeys `shutdown` and `budget_update`, and completes.
//
//   agent-mux run --config examples/process-agent.json --adapter reference-agent "say hello"
import { createInterface } from 'node:readline';

const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const pending = new Map();
let nextId = 0;
const cost = { model: 'demo-1', inputTokens: 0, outputTokens: 0 };

const call = (tool, args) =>
  new Promise((resolve) => {
    const id = `call_${++nextId}`;
    pending.set(id, resolve);
    say({ type: 'tool_call', id, tool, args });
  });

createInterface({ input: process.stdin }).on('line', (line) => {
  let event;
  try {
    event = JSON.parse(line);
  } catch {
    return; // not ours to crash on
  }
  if (event.type === 'shutdown') {
    say({ type: 'failed', reason: event.reason, details: 'shut down by the adapter', cost });
    process.exit(0);
  }
  if (event.type === 'budget_update')
    say({ type: 'progress', summary: `budget left: ${JSON.stringify(event.remaining)}` });
  if (event.type === 'tool_result') pending.get(event.id)?.(event);
});

say({ type: 'progress', summary: 'starting', beliefs: [], attempted: [] });
const task = await call('read_task', {});
if (!task.ok) {
  say({ type: 'failed', reason: 'no_task', details: task.error });
  process.exit(0);
}
cost.inputTokens += 1000;
cost.outputTokens += 150;
say({ type: 'progress', summary: `working on: ${task.value.prompt}`, attempted: ['read_task'], cost });
// REFERENCE_AGENT_WRITE_FIRST=1 writes hello.txt before the steps rather than after them, so a run
// stopped during the steps (its budget spent) has changed a file.
const writeFirst = process.env.REFERENCE_AGENT_WRITE_FIRST === '1';
const writeHello = () => call('write_file', { path: 'hello.txt', content: `${task.value.prompt}\n` });
const early = writeFirst ? await writeHello() : undefined;
// REFERENCE_AGENT_STEPS steps (model responses) of ~1,100 tokens each, REFERENCE_AGENT_STEP_MS apart
// (default 20). With REFERENCE_AGENT_STEP_TOOL, each response also calls that tool and the next one
// waits for its result, as a model turn that uses a tool does: the agent then never runs ahead of
// the caller that reads its costs (and may pause it).
const steps = Number(process.env.REFERENCE_AGENT_STEPS ?? 0);
const stepMs = Number(process.env.REFERENCE_AGENT_STEP_MS ?? 20);
const stepTool = process.env.REFERENCE_AGENT_STEP_TOOL;
for (let i = 0; i < steps; i++) {
  // Input already waiting is read before the next response is started: a `shutdown` sent while the
  // agent was paused (SIGSTOP) ends it here, with no response more.
  await new Promise((r) => setImmediate(r));
  cost.inputTokens += 1000;
  cost.outputTokens += 100;
  say({ type: 'progress', summary: `step ${i + 1}`, cost });
  if (stepTool) await call(stepTool, {});
  await new Promise((r) => setTimeout(r, stepMs));
}
const written = early ?? (await writeHello());
say({
  type: 'comment',
  text: written.ok ? 'Wrote hello.txt.' : `Could not write hello.txt: ${written.error}`,
  mentions: [],
});
say({ type: 'complete', output: { wrote: written.ok }, cost });
process.exit(0);
