import type { Adapter } from '../../src/core/adapter/index.ts';

/**
 * The same adapter — translator, controller, capabilities — but running another program:
 * a fixture executable instead of the real CLI. The adapter's own plan still decides
 * protocol, stdin and PTY; only command and arguments are replaced.
 */
export function withProgram(adapter: Adapter, command: string, args: readonly string[]): Adapter {
  const launch = adapter.launch;
  if (launch.kind !== 'process') throw new Error(`${adapter.id} is not a process adapter`);
  return {
    ...adapter,
    launch: {
      ...launch,
      // The real program's sandbox probe does not apply to the stand-in.
      plan: async (ctx) => {
        const { sandboxProbe: _probe, ...plan } = await launch.plan(ctx);
        return { ...plan, command, args };
      },
    },
  };
}

export const fixtureBin = (name: string) => new URL(`../fixtures/bin/${name}`, import.meta.url).pathname;
