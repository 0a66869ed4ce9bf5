import type { Adapter } from '../adapter/index.ts';
import type { AdapterConfig, AdapterConfigOf, AdapterConfigType, AgentMuxConfig } from '../config/index.ts';
import { formatConfigPath, lineOfConfigPath } from '../config/index.ts';
import { AdapterNotFoundError, ConfigError, type ConfigIssue } from '../errors/index.ts';

/** What a config-type factory gets besides its own entry. */
export interface ConfigAdapterContext {
  /** The configuration file, for messages. */
  file: string;
  /** The whole configuration (pricing, defaults, the other adapters). */
  config: AgentMuxConfig;
}

/** Builds an adapter from one entry of the configuration's `adapters` map. May throw `ConfigError`. */
export type ConfigAdapterFactory<C extends AdapterConfig = AdapterConfig> = (
  id: string,
  config: C,
  ctx: ConfigAdapterContext,
) => Adapter;

/** Where an adapter of the registry comes from. */
export type AdapterOrigin = 'built-in' | 'config';

/**
 * The adapters a program can run, by id: built-in ones registered in code and those the
 * configuration file defines. A configured adapter whose id equals a built-in's replaces it.
 */
export class AdapterRegistry {
  readonly #builtIns = new Map<string, Adapter>();
  readonly #factories = new Map<AdapterConfigType, ConfigAdapterFactory>();
  #configured = new Map<string, Adapter>();

  /** Adds a built-in adapter; one registered earlier with the same id is replaced. */
  register(adapter: Adapter): this {
    this.#builtIns.set(adapter.id, adapter);
    return this;
  }

  /** Says how configuration entries of `type` become adapters. Replaces an earlier factory for it. */
  registerConfigType<T extends AdapterConfigType>(type: T, factory: ConfigAdapterFactory<AdapterConfigOf<T>>): this {
    // Sound: `loadConfig` only passes entries whose `type` is T to this factory.
    this.#factories.set(type, factory as unknown as ConfigAdapterFactory);
    return this;
  }

  /**
   * Builds the adapters of a configuration (already validated, see `loadConfig`/`parseConfig`),
   * replacing those of any earlier configuration. All or nothing: on any problem nothing changes
   * and one `ConfigError` lists every entry that failed (a `type` with no factory, a factory that threw).
   */
  loadConfig(config: AgentMuxConfig, file: string): this {
    const built = new Map<string, Adapter>();
    const issues: ConfigIssue[] = [];
    let cause: unknown;
    const ctx: ConfigAdapterContext = { file, config };
    for (const [id, entry] of Object.entries(config.adapters)) {
      const factory = this.#factories.get(entry.type);
      if (!factory) {
        const known = [...this.#factories.keys()];
        issues.push(
          issue(
            config,
            ['adapters', id, 'type'],
            `no adapter factory is registered for type "${entry.type}"` +
              (known.length ? `; available: ${known.join(', ')}` : ''),
          ),
        );
        continue;
      }
      try {
        built.set(id, factory(id, entry, ctx));
      } catch (error) {
        cause ??= error;
        if (ConfigError.isInstance(error)) issues.push(...error.issues);
        else issues.push(issue(config, ['adapters', id], (error as Error)?.message ?? String(error), 'key'));
      }
    }
    if (issues.length > 0) throw new ConfigError(file, issues, { cause });
    this.#configured = built;
    return this;
  }

  /** The adapter with this id (configured first, then built-in); throws `AdapterNotFoundError`. */
  get(id: string): Adapter {
    const adapter = this.#configured.get(id) ?? this.#builtIns.get(id);
    if (!adapter) throw new AdapterNotFoundError(id, this.ids());
    return adapter;
  }

  has(id: string): boolean {
    return this.#configured.has(id) || this.#builtIns.has(id);
  }

  /** Where the adapter with this id comes from, or undefined when there is none. */
  origin(id: string): AdapterOrigin | undefined {
    return this.#configured.has(id) ? 'config' : this.#builtIns.has(id) ? 'built-in' : undefined;
  }

  /** Every adapter id, sorted. */
  ids(): string[] {
    return [...new Set([...this.#builtIns.keys(), ...this.#configured.keys()])].sort();
  }

  /** Every adapter (a configured one in place of a built-in with its id), sorted by id. */
  list(): Adapter[] {
    return this.ids().map((id) => this.get(id));
  }
}

function issue(config: AgentMuxConfig, path: readonly string[], message: string, at?: 'key' | 'value'): ConfigIssue {
  return { path: formatConfigPath(path), message, line: lineOfConfigPath(config, path, at) };
}
