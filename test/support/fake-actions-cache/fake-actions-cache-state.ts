/** One cache entry as the cache service keeps it: reserved by `CreateCacheEntry`, readable once finalized. */
export interface FakeCacheEntry {
  id: number;
  key: string;
  version: string;
  /** The blob's name in the stand-in's storage account. */
  blobName: string;
  createdAt: number;
  finalized: boolean;
  sizeBytes?: number;
}

/** A blob in the stand-in's storage: committed content and blocks staged by `Put Block`. */
export interface FakeBlob {
  content?: Buffer;
  staged: Map<string, Buffer>;
}

/** What the stand-in holds; tests read it to check what was stored. */
export class FakeActionsCacheState {
  readonly entries: FakeCacheEntry[] = [];
  readonly blobs = new Map<string, FakeBlob>();
  #nextId = 1;

  reserve(key: string, version: string): FakeCacheEntry {
    const id = this.#nextId++;
    const entry: FakeCacheEntry = {
      id,
      key,
      version,
      blobName: `entry-${id}`,
      createdAt: Date.now() + id,
      finalized: false,
    };
    this.entries.push(entry);
    return entry;
  }

  find(key: string, version: string): FakeCacheEntry | undefined {
    return this.entries.find((e) => e.key === key && e.version === version);
  }

  /**
   * The service's lookup: the primary key exactly, then each restore key exactly and then as a
   * prefix, newest entry first; only finalized entries of the same version count.
   */
  lookup(key: string, restoreKeys: readonly string[], version: string): FakeCacheEntry | undefined {
    const ready = this.entries
      .filter((e) => e.finalized && e.version === version)
      .sort((a, b) => b.createdAt - a.createdAt);
    const exact = ready.find((e) => e.key === key);
    if (exact) return exact;
    for (const prefix of restoreKeys) {
      const match = ready.find((e) => e.key === prefix) ?? ready.find((e) => e.key.startsWith(prefix));
      if (match) return match;
    }
    return undefined;
  }
}
