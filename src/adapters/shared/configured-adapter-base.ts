import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../core/adapter/index.ts';

/** Who an adapter made from a configuration entry is: all of it but how it launches. */
export interface ConfiguredAdapterIdentity {
  /** The entry's name. */
  id: string;
  /** Shown by `agent-mux adapters`, e.g. `my-agent (process: ./agent.sh)`. */
  displayName: string;
  capabilities: Capabilities;
  /** The entry's `costModel` and `secretEnv`, passed on as they are. */
  config: { readonly costModel?: string; readonly secretEnv?: readonly string[] };
}

/**
 * The part of an {@link Adapter} every configured adapter type (process, generic-cli, generic-job,
 * external, acp) fills the same way: the specification version, its id, display name and
 * capabilities, and the entry's `costModel` and `secretEnv`. The type adds its `launch` (and
 * whatever else it has).
 */
export function configuredAdapterBase(identity: ConfiguredAdapterIdentity): Omit<Adapter, 'launch'> {
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: identity.id,
    displayName: identity.displayName,
    capabilities: identity.capabilities,
    costModel: identity.config.costModel,
    secretEnv: identity.config.secretEnv,
  };
}
