/**
 * The program that starts the agent inside a fence with a network of its own (`network: 'own'`),
 * run there by Node as `node -e LOOPBACK_RELAY_SCRIPT -- SOCKET_DIR PORTS COMMAND ARGS…`:
 *
 * 1. it listens on `127.0.0.1:PORT` and `[::1]:PORT` of the namespace's own loopback for each of
 *    PORTS (comma-separated) and carries each connection to `SOCKET_DIR/PORT.sock`, where agent-mux
 *    relays it to the host's `127.0.0.1:PORT` (the run's MCP server, a local model endpoint);
 * 2. it waits until slirp4netns has configured the namespace's egress (a default route on `tap0`),
 *    at most 10 s, and fails with exit 125 and a reason when it has not;
 * 3. it starts the agent with the same standard streams and environment, passes on the signals a
 *    stop sends, and ends as the agent ended (the same exit code, or the same signal).
 *
 * Plain JavaScript on purpose: it runs in the fence as a string, whatever bundle agent-mux came in.
 */
export const LOOPBACK_RELAY_SCRIPT = String.raw`
'use strict';
const net = require('node:net');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [dir, list, command, ...args] = process.argv.slice(1);
const ports = list ? list.split(',').filter(Boolean).map(Number) : [];
const servers = [];
function relay(port) {
  return (client) => {
    const host = net.connect(dir + '/' + port + '.sock');
    client.pipe(host);
    host.pipe(client);
    client.on('error', () => host.destroy());
    host.on('error', () => client.destroy());
  };
}
function listen(port, address) {
  return new Promise((resolve) => {
    const server = net.createServer(relay(port));
    server.once('error', () => resolve(address === '127.0.0.1' ? 'cannot listen on ' + address + ':' + port : ''));
    server.listen(port, address, () => {
      servers.push(server);
      resolve('');
    });
  });
}
function routed() {
  try {
    return fs.readFileSync('/proc/net/route', 'utf8').split('\n').some((line) => /^tap0\s+00000000\s/.test(line));
  } catch {
    return false;
  }
}
function fail(message) {
  process.stderr.write('agent-mux fence: ' + message + '\n');
  process.exit(125);
}
async function main() {
  for (const port of ports) {
    for (const address of ['127.0.0.1', '::1']) {
      const problem = await listen(port, address);
      if (problem) fail(problem);
    }
  }
  const deadline = Date.now() + 10000;
  while (!routed()) {
    if (Date.now() > deadline) fail('the network namespace got no egress within 10 s (slirp4netns did not configure tap0)');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => fail('cannot start ' + command + ': ' + error.message));
  child.on('exit', (code, signal) => {
    for (const server of servers) server.close();
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}
main();
`;
