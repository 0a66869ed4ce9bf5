import type { ChangedFile } from '../github/git/collect-changes.ts';
import { truncate } from '../github/report/markdown.ts';

/** The most notices `changedFileAnnotations` returns (the summary notice included). */
export const MAX_FILE_ANNOTATIONS = 50;

/** One notice for `core.notice(message, properties)`. */
export interface FileAnnotation {
  message: string;
  properties: {
    title: string;
    /** The file, relative to the repository's top; absent on the summary notice. */
    file?: string;
    startLine?: number;
    endLine?: number;
  };
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One `notice` per file the agent changed, pointing at its first changed line (a deletion, or a
 * file whose first changed line is unknown, is annotated as a whole): at most
 * `MAX_FILE_ANNOTATIONS`, the last of which says `… and N more files` when there are more.
 * Property values are passed as they are: `@actions/core` escapes them for the workflow command.
 */
export function changedFileAnnotations(files: readonly ChangedFile[]): FileAnnotation[] {
  const fits = files.length <= MAX_FILE_ANNOTATIONS;
  const shown = fits ? files : files.slice(0, MAX_FILE_ANNOTATIONS - 1);
  const notices = shown.map(fileAnnotation);
  if (!fits) {
    const more = files.length - shown.length;
    notices.push({
      message: `… and ${count(more, 'more file')} changed by the agent (see the job summary or the pull request).`,
      properties: { title: `agent-mux: ${count(files.length, 'file')} changed` },
    });
  }
  return notices;
}

function fileAnnotation(file: ChangedFile): FileAnnotation {
  const lines = `${count(file.additions, 'addition')}, ${count(file.deletions, 'deletion')}`;
  const from = file.status === 'renamed' && file.previousPath !== undefined ? ` from ${file.previousPath}` : '';
  const line =
    file.status !== 'deleted' && file.firstLine !== undefined && file.firstLine > 0 ? file.firstLine : undefined;
  return {
    message: truncate(`The agent ${file.status} this file${from}: ${lines}.`, 2000),
    properties: {
      title: truncate(`agent-mux: ${file.status} (+${file.additions} −${file.deletions})`, 255),
      file: file.path,
      ...(line === undefined ? {} : { startLine: line, endLine: line }),
    },
  };
}
