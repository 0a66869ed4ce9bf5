import { commentTool } from './builtin/comment-tool.ts';
import { listFilesTool } from './builtin/list-files-tool.ts';
import { markCompleteTool } from './builtin/mark-complete-tool.ts';
import { markFailedTool } from './builtin/mark-failed-tool.ts';
import { readFileTool } from './builtin/read-file-tool.ts';
import { readTaskTool } from './builtin/read-task-tool.ts';
import { reportProgressTool } from './builtin/report-progress-tool.ts';
import { type ShellToolOptions, shellTool } from './builtin/shell-tool.ts';
import { writeFileTool } from './builtin/write-file-tool.ts';
import type { AnyToolDefinition } from './tool-registry.ts';

export interface BuiltinToolOptions {
  /** Most bytes one `read_file` call returns. Default 1 MiB. */
  maxReadBytes?: number;
  /** Most entries one `list_files` call returns. Default 1000. */
  maxListEntries?: number;
  /**
   * Offer `shell` too, run this way: for agents whose tools are all the caller's (a remote agent,
   * docs/remote.md). Default: not offered (a local agent has its own shell).
   */
  shell?: ShellToolOptions;
}

/** The tools every run offers: task, comment, progress, workspace files and the outcome. */
export function builtinTools(options: BuiltinToolOptions = {}): AnyToolDefinition[] {
  return [
    readTaskTool(),
    commentTool(),
    reportProgressTool(),
    readFileTool({ maxBytes: options.maxReadBytes }),
    writeFileTool(),
    listFilesTool({ maxEntries: options.maxListEntries }),
    markCompleteTool(),
    markFailedTool(),
    ...(options.shell ? [shellTool(options.shell)] : []),
  ];
}
