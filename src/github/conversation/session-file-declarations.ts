import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import type { SessionFileDeclaration } from '../../core/adapter/session-files.ts';

let builtin: ReadonlyMap<string, SessionFileDeclaration> | undefined;

/**
 * The session-file declaration of a built-in adapter (`Adapter.sessionFiles`, declared in the
 * adapter's own folder), or undefined when its sessions cannot be carried over. A run reads it from
 * the adapter it runs; this lookup by id is for front ends and tests that have only the id.
 */
export function sessionFilesFor(adapterId: string): SessionFileDeclaration | undefined {
  builtin ??= new Map(
    createBuiltinRegistry()
      .list()
      .flatMap((adapter) => (adapter.sessionFiles ? [[adapter.id, adapter.sessionFiles] as const] : [])),
  );
  return builtin.get(adapterId);
}
