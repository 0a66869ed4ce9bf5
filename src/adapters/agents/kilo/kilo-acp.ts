import type { Adapter } from '../../../core/adapter/index.ts';
import { type OpenCodeAcpAdapterOptions, openCodeStyleAcpAdapter } from '../opencode/opencode-acp.ts';
import { kiloAdapter, kiloFlavor } from './kilo-adapter.ts';

/** Kilo Code CLI over ACP (`kilo acp`), an OpenCode fork. */
export function kiloAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(kiloAdapter(options), kiloFlavor, 'Kilo Code CLI (ACP)');
}
