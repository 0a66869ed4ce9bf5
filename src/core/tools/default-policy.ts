import type { PermissionPolicy } from './permission-policy.ts';

/** Reading and reporting are allowed; anything that changes the workspace or the world asks first. */
export const defaultPolicy: PermissionPolicy = {
  default: 'ask',
  rules: [
    { tool: 'read_task', decision: 'allow' },
    { tool: 'report_progress', decision: 'allow' },
    { tool: 'comment', decision: 'allow' },
    { tool: 'read_file', decision: 'allow' },
    { tool: 'list_files', decision: 'allow' },
    { tool: 'mark_complete', decision: 'allow' },
    { tool: 'mark_failed', decision: 'allow' },
  ],
};
