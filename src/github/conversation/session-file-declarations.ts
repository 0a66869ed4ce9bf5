import { claudeSessionFiles } from './claude-session-files.ts';
import { codexSessionFiles } from './codex-session-files.ts';
import { geminiSessionFiles } from './gemini-session-files.ts';
import type { SessionFileDeclaration } from './session-files.ts';

/**
 * Session-file declarations by adapter id: the adapters whose sessions a conversation can carry
 * between machines (each checked against what its real CLI writes and resumes from).
 */
const declarations: Readonly<Record<string, SessionFileDeclaration>> = {
  claude: claudeSessionFiles,
  codex: codexSessionFiles,
  gemini: geminiSessionFiles,
};

/** The declaration for an adapter id, or undefined when its sessions cannot be carried over. */
export function sessionFilesFor(adapterId: string): SessionFileDeclaration | undefined {
  return Object.hasOwn(declarations, adapterId) ? declarations[adapterId] : undefined;
}
