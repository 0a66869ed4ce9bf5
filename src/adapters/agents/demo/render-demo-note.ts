/** The file the demo writes when it finds no typo to fix, so that every run changes something visible. */
export const DEMO_NOTE_FILE = 'AGENT_MUX_DEMO.md';

/**
 * The Markdown of {@link DEMO_NOTE_FILE}: the request restated (the prompt quoted, with the
 * repository and the issue or pull request when `read_task` names them) and what the demo is.
 * `task` is what `read_task` returned; anything else yields a note with the prompt alone.
 */
export function renderDemoNote(task: unknown, fallbackPrompt: string): string {
  const fields = isRecord(task) ? task : {};
  const prompt = typeof fields.prompt === 'string' && fields.prompt.trim() ? fields.prompt : fallbackPrompt;
  const repository = typeof fields.repository === 'string' ? fields.repository : undefined;
  const issue = numberOf(fields.issue);
  const pullRequest = numberOf(fields.pullRequest);
  const where = [
    repository,
    pullRequest !== undefined ? `pull request #${pullRequest}` : issue !== undefined ? `issue #${issue}` : undefined,
  ].filter((part) => part !== undefined);
  const quoted = prompt
    .trim()
    .split('\n')
    .map((line) => (line.trim() ? `> ${line}` : '>'))
    .join('\n');
  return [
    '# agent-mux demo',
    '',
    `The demo agent of agent-mux was asked${where.length ? ` (${where.join(', ')})` : ''}:`,
    '',
    quoted,
    '',
    'It is a scripted agent that needs no key: it fixes the typos "projcet" and "teh" in README.md,',
    'and where it finds none it writes this file, so that a run shows its whole flow (approval,',
    'commit, branch, pull request). To have the request carried out, choose a real agent',
    '(e.g. `agent: claude-code`). This file can be deleted.',
    '',
  ].join('\n');
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const numberOf = (value: unknown): number | undefined =>
  isRecord(value) && typeof value.number === 'number' ? value.number : undefined;
