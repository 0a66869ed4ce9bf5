import { describe, expect, test } from 'vitest';
import { agentConfigPaths, isAgentConfigPath } from '../../../src/github/git/agent-config-paths.ts';

describe('isAgentConfigPath', () => {
  test.each([
    '.mcp.json',
    'CLAUDE.md',
    'CLAUDE.local.md',
    '.claude/settings.json',
    '.claude/commands/deploy.md',
    '.claude',
    'AGENTS.md',
    'pkg/AGENTS.md',
    'deep/nested/dir/CLAUDE.md',
    'AGENTS.MD',
    'AGENTS.override.md',
    'GEMINI.md',
    '.gemini/settings.json',
    'QWEN.md',
    '.qwen/settings.json',
    '.codex/config.toml',
    '.opencode/agent/review.md',
    'opencode.json',
    'opencode.jsonc',
    '.kilocode/rules/a.md',
    '.kilo/config.json',
    '.cursor/rules/style.mdc',
    'web/.cursor/rules/x.mdc',
    '.cursorrules',
    '.github/copilot-instructions.md',
    '.github/instructions/ts.instructions.md',
    '.pi/settings.json',
    '.omp/config.yml',
    '.hermes/config.yaml',
    '.hermes.md',
    '.openclaw/openclaw.json',
    '.vscode/mcp.json',
    '.github/agent-mux.yml',
  ])('%s is agent configuration', (path) => {
    expect(isAgentConfigPath(path)).toBe(true);
  });

  test.each([
    'README.md',
    'src/claude.ts',
    'docs/MYCLAUDE.md',
    'CLAUDE.md.bak',
    '.mcp.json.example',
    '.vscode/settings.json',
    '.github/workflows/ci.yml',
    'claude/settings.json',
    'src/agents.ts',
  ])('%s is not', (path) => {
    expect(isAgentConfigPath(path)).toBe(false);
  });

  test('every listed entry matches itself', () => {
    for (const entry of agentConfigPaths) {
      expect(isAgentConfigPath(entry.endsWith('/') ? `${entry}file` : entry)).toBe(true);
    }
  });
});
