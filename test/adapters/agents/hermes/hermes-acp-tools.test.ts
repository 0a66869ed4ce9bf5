import { describe, expect, it } from 'vitest';
import { hermesToolOf, withHermesTool } from '../../../../src/adapters/agents/hermes/hermes-acp-tools.ts';

// Titles as acp_adapter/tools.py `build_tool_title` (0.18.2) writes them; questions as
// acp_adapter/permissions.py and edit_approval.py send them.
describe('hermesToolOf', () => {
  it.each([
    ['read: src/a.ts', 'read_file', { path: 'src/a.ts' }],
    ['write: notes.md', 'write_file', { path: 'notes.md' }],
    ['patch (replace): src/a.ts', 'patch', { mode: 'replace', path: 'src/a.ts' }],
    ['search: TODO', 'search_files', { pattern: 'TODO' }],
    ['web search: acp', 'web_search', { query: 'acp' }],
    ['memory add: user', 'memory', { action: 'add', target: 'user' }],
  ])('%s → %s', (title, tool, input) => {
    expect(hermesToolOf({ title, kind: 'other' })).toEqual({ tool, input });
  });

  it('the terminal command from the `$ …` content, which the title cuts at 80 characters', () => {
    const command = `echo ${'x'.repeat(100)}`;
    const call = {
      title: `terminal: ${command.slice(0, 77)}...`,
      kind: 'execute',
      content: [{ type: 'content', content: { type: 'text', text: `$ ${command}` } }],
    };
    expect(hermesToolOf(call)).toEqual({ tool: 'terminal', input: { command } });
  });

  it('an edit question names the tool in its rawInput', () => {
    const call = {
      title: 'Approve edit: a.txt',
      kind: 'edit',
      rawInput: { tool: 'write_file', arguments: { path: 'a.txt', content: 'x' } },
    };
    expect(hermesToolOf(call)).toEqual({ tool: 'write_file', input: { path: 'a.txt', content: 'x' } });
  });

  it("another tool's title is its bare name; free text tells nothing", () => {
    expect(hermesToolOf({ title: 'send_message' })).toEqual({ tool: 'send_message' });
    expect(hermesToolOf({ title: 'Something else entirely' })).toBeUndefined();
  });

  it('withHermesTool keeps a name or rawInput the agent gave, and the other _meta', () => {
    const named = { name: 'x', title: 'read: a' };
    expect(withHermesTool(named)).toBe(named);
    expect(withHermesTool({ title: 'read: a', rawInput: { path: 'b' }, _meta: { other: 1 } })).toEqual({
      title: 'read: a',
      rawInput: { path: 'b' },
      _meta: { other: 1, hermes: { toolName: 'read_file' } },
    });
  });
});
