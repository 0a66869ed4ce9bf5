import { claudeSessionFiles } from './claude-session-files.ts';
import { codexSessionFiles } from './codex-session-files.ts';
import { geminiSessionFiles } from './gemini-session-files.ts';
import { ompSessionFiles } from './omp-session-files.ts';
import { kiloSessionFiles, openCodeSessionFiles } from './opencode-session-files.ts';
import { piSessionFiles } from './pi-session-files.ts';
import { qwenSessionFiles } from './qwen-session-files.ts';
import type { SessionFileDeclaration } from './session-files.ts';

/**
 * Session-file declarations by adapter id: the adapters whose sessions a conversation can carry
 * between machines (each checked against what its real CLI writes and resumes from).
 */
const declarations: Readonly<Record<string, SessionFileDeclaration>> = {
  claude: claudeSessionFiles,
  codex: codexSessionFiles,
  gemini: geminiSessionFiles,
  qwen: qwenSessionFiles,
  pi: piSessionFiles,
  omp: ompSessionFiles,
  // One database for all sessions: carried as the CLI's export of the one session.
  opencode: openCodeSessionFiles,
  kilo: kiloSessionFiles,
  // Over ACP the same programs keep their sessions where they always do: claude-agent-acp drives
  // Claude Code, codex-acp starts `codex app-server`, gemini --acp, qwen --acp, opencode acp and kilo acp are the CLIs.
  'claude-acp': claudeSessionFiles,
  'codex-acp': codexSessionFiles,
  'gemini-acp': geminiSessionFiles,
  'qwen-acp': qwenSessionFiles,
  'opencode-acp': openCodeSessionFiles,
  'kilo-acp': kiloSessionFiles,
  'omp-acp': ompSessionFiles,
};

/** The declaration for an adapter id, or undefined when its sessions cannot be carried over. */
export function sessionFilesFor(adapterId: string): SessionFileDeclaration | undefined {
  return Object.hasOwn(declarations, adapterId) ? declarations[adapterId] : undefined;
}
