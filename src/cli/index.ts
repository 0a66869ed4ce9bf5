#!/usr/bin/env node
import { processIO } from './cli-io.ts';
import { main } from './main.ts';

// A closed pipe (`agent-mux run --json … | head`) ends the command quietly; the exit hook
// of the run core still kills the agent's process group.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), processIO());
