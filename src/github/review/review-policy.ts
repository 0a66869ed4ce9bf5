import type { PermissionPolicy } from '../../core/tools/permission-policy.ts';
import { REPORT_FINDING } from './report-finding-tool.ts';

/**
 * A review's policy: the run's own, with two rules first. Reporting a finding never waits for an
 * approval, and writing a file is refused at once (a review keeps no change, so nobody is asked to
 * approve one). `write_file` names every agent's own write tools too (`Adapter.toolNames`).
 */
export function reviewPolicy(policy: PermissionPolicy): PermissionPolicy {
  return {
    ...policy,
    rules: [
      { tool: REPORT_FINDING, decision: 'allow' },
      { tool: 'write_file', decision: 'deny', reason: 'a review changes no file: report what should change instead' },
      ...(policy.rules ?? []),
    ],
  };
}
