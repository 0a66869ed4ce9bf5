/** The reference Process-protocol agent (examples/process-agent.mjs): ~1,150 tokens, then 1,100 a step. */
export const REFERENCE_AGENT = new URL('../../examples/process-agent.mjs', import.meta.url).pathname;

/**
 * A repository config's `agents:` block with the reference agent as `worker`, taking `steps` steps
 * (`REFERENCE_AGENT_STEPS`) and any further variables of its environment.
 */
export function referenceWorkerConfig(steps: number, env: Record<string, string> = {}): string {
  const vars = Object.entries({ REFERENCE_AGENT_STEPS: String(steps), ...env })
    .map(([name, value]) => `${name}: '${value}'`)
    .join(', ');
  return `
agents:
  worker:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${REFERENCE_AGENT}]
      env: { ${vars} }`;
}
