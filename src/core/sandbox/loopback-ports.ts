/** A URL on the loopback: `http://127.0.0.1:8080`, `ws://localhost:9000/x`, `http://[::1]:3000`. */
const LOOPBACK_URL = /\b[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s"']*@)?(?:127(?:\.\d{1,3}){3}|localhost|\[::1\]):(\d{1,5})/gi;

/**
 * The host loopback ports that values of an agent's plan point at (its MCP server's URL, a local
 * model endpoint in `ANTHROPIC_BASE_URL`, …): what a fence with its own network relays in.
 */
export function loopbackPortsOf(values: Iterable<string | undefined>): number[] {
  const ports = new Set<number>();
  for (const value of values) {
    if (!value) continue;
    for (const match of value.matchAll(LOOPBACK_URL)) {
      const port = Number(match[1]);
      if (port > 0 && port < 65536) ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}
