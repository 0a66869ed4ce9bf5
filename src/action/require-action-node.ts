import { requireNodeVersion } from '../core/host/require-node-version.ts';

/**
 * Stops a step of the Action started on a Node older than it needs with one error annotation
 * instead of a stack trace. Called first, before the modules that need the newer Node are loaded.
 */
export function requireActionNode(step: string): void {
  requireNodeVersion({
    program: `the agent-mux Action${step === 'main' ? '' : ` (${step} step)`}`,
    remedy: 'it runs with `runs.using: node24` (action.yml); use a runner whose Node 24 is current',
    prefix: '::error::',
    to: 'stdout',
  });
}
