import picomatch from 'picomatch';

/**
 * The files and folders a pull request could add or change to steer an agent: instructions, rules,
 * MCP servers, hooks, permissions, custom commands and agent-mux's own configuration. A name
 * ending in `/` is a folder (everything under it counts). Agents read several of them in
 * subdirectories too (Claude Code, Codex, opencode and Hermes pick up nested `CLAUDE.md` /
 * `AGENTS.md`; Cursor nested `.cursor/rules`), so `isAgentConfigPath` matches each at any depth and
 * in any letter case (`AGENTS.MD` is read too).
 */
export const agentConfigPaths: readonly string[] = [
  // agent-mux
  '.github/agent-mux.yml',
  '.github/agent-mux.yaml',
  // Claude Code (opencode, Hermes and Pi read CLAUDE.md as well)
  '.mcp.json',
  'CLAUDE.md',
  'CLAUDE.local.md',
  '.claude/',
  // Codex, opencode, Pi, Hermes, Copilot and others
  'AGENTS.md',
  'AGENTS.override.md',
  'AGENT.md',
  '.agents/',
  '.codex/',
  // Gemini CLI and Qwen Code
  'GEMINI.md',
  '.gemini/',
  '.geminiignore',
  'QWEN.md',
  '.qwen/',
  // opencode, Kilo
  '.opencode/',
  'opencode.json',
  'opencode.jsonc',
  '.kilocode/',
  '.kilo/',
  'kilo.json',
  'kilo.jsonc',
  // Cursor
  '.cursor/',
  '.cursorrules',
  '.cursorignore',
  // GitHub Copilot and VS Code
  '.github/copilot-instructions.md',
  '.github/instructions/',
  '.github/prompts/',
  '.github/agents/',
  '.github/chatmodes/',
  '.vscode/mcp.json',
  // Pi, oh-my-pi, Hermes, OpenClaw
  '.pi/',
  '.omp/',
  '.hermes/',
  '.hermes.md',
  'HERMES.md',
  '.openclaw/',
];

const patterns = agentConfigPaths.flatMap((entry) =>
  entry.endsWith('/') ? [`**/${entry.slice(0, -1)}`, `**/${entry}**`] : [`**/${entry}`],
);

const matcher = picomatch(patterns, { dot: true, nocase: true });

/**
 * Whether a repository-relative path (`/`-separated, as git prints it) is, or lies under, one of
 * `agentConfigPaths`, at any depth: `CLAUDE.md`, `pkg/AGENTS.md`, `.claude/settings.json`, `.claude`
 * itself (a symlink in place of the folder).
 */
export function isAgentConfigPath(path: string): boolean {
  return matcher(path);
}
