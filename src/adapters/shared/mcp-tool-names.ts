/** The MCP server and tool an agent's tool name stands for. */
export interface McpToolName {
  server: string;
  tool: string;
}

/**
 * A reader of the tool names an agent gives MCP tools, written `<prefix><server><separator><tool>`
 * (Claude Code: `mcp__github__create_issue`; Gemini CLI: `mcp_github_create_issue`): the server
 * is the part before the first separator. Undefined for any other name, or an empty server or tool.
 */
export function mcpToolNames(prefix: string, separator: string): (name: string) => McpToolName | undefined {
  return (name) => {
    if (!name.startsWith(prefix)) return undefined;
    const rest = name.slice(prefix.length);
    const split = rest.indexOf(separator);
    if (split <= 0 || split + separator.length >= rest.length) return undefined;
    return { server: rest.slice(0, split), tool: rest.slice(split + separator.length) };
  };
}
