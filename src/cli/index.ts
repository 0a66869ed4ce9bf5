#!/usr/bin/env node
import { requireNodeVersion } from '../core/host/require-node-version.ts';

// First the Node version, before the modules that need a newer one are loaded: an old Node gets
// one sentence instead of a stack trace. ncc bundles the eager imports into this one file.
requireNodeVersion({
  program: 'agent-mux',
  remedy:
    'install Node.js 24 from https://nodejs.org, or run it in its checkout through npm (`npm run demo`, `npx agent-mux --help`), which brings its own Node 24',
});
const [{ processIO }, { main }] = await Promise.all([
  import(/* webpackMode: "eager" */ './cli-io.ts'),
  import(/* webpackMode: "eager" */ './main.ts'),
  // The modules that hold the MCP and ACP SDKs, which the Action's bundle loads on first use from
  // chunks of their own: here in the one file, so that dist/cli/index.js stays a single file to copy.
  import(/* webpackMode: "eager" */ '../core/tools/mcp/create-mcp-session-server.ts'),
  import(/* webpackMode: "eager" */ '../adapters/protocols/acp/acp-client-app.ts'),
]);

// A closed pipe (`agent-mux run --json … | head`) ends the command quietly; the exit hook
// of the run core still kills the agent's process group.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), processIO());
