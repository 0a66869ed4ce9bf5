import type { ApprovalEntry, ApprovalTimes } from './progress-types.ts';

/**
 * A run's tool-permission requests in the order asked, with when each was asked and decided. A
 * request asked again (a retry) replaces the old one in place.
 */
export class ApprovalLedger {
  /** Every request, in the order asked. */
  readonly entries: ApprovalEntry[] = [];
  readonly #byId = new Map<string, ApprovalEntry>();
  readonly #times = new Map<ApprovalEntry, ApprovalTimes>();

  /** Records a request asked at `at`. */
  ask(at: number, entry: ApprovalEntry): void {
    const known = this.#byId.get(entry.id);
    if (known) this.entries[this.entries.indexOf(known)] = entry;
    else this.entries.push(entry);
    this.#byId.set(entry.id, entry);
    this.#times.set(entry, { askedAt: at, decidedAt: undefined });
  }

  /** Records the decision on request `id` at `at`; an unknown id changes nothing. */
  decide(at: number, id: string, decision: Partial<ApprovalEntry> & Pick<ApprovalEntry, 'state'>): void {
    const entry = this.#byId.get(id);
    if (!entry) return;
    Object.assign(entry, decision);
    this.#decided(at, entry);
  }

  /** Denies every request still pending: the run ended first. */
  endPending(at: number): void {
    for (const entry of this.entries) {
      if (entry.state !== 'pending') continue;
      entry.state = 'denied';
      entry.denyReason = 'the run ended first';
      this.#decided(at, entry);
    }
  }

  /** How many requests wait for a decision. */
  get pendingCount(): number {
    let count = 0;
    for (const entry of this.entries) if (entry.state === 'pending') count++;
    return count;
  }

  /** When `entry` was asked and decided (a copy); undefined for an entry not held here. */
  timesOf(entry: ApprovalEntry): ApprovalTimes | undefined {
    const times = this.#times.get(entry);
    return times && { ...times };
  }

  #decided(at: number, entry: ApprovalEntry): void {
    const times = this.#times.get(entry);
    if (times) times.decidedAt = Math.max(at, times.askedAt);
  }
}
