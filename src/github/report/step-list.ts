import type { ProgressStep, StepTimes } from './progress-types.ts';

/** A run's checklist: its steps in order, found by id, with when each started and ended. */
export class StepList {
  /** Every step, in the order it started. */
  readonly items: ProgressStep[] = [];
  readonly #byId = new Map<string, ProgressStep>();
  readonly #times = new Map<ProgressStep, StepTimes>();
  #progressCount = 0;

  /** The step of this id, if any. */
  get(id: string): ProgressStep | undefined {
    return this.#byId.get(id);
  }

  /** Adds a step that started at `at`. */
  add(at: number, step: ProgressStep): void {
    this.items.push(step);
    this.#byId.set(step.id, step);
    this.#times.set(step, { startedAt: at, endedAt: undefined });
  }

  /** Starts the next `progress` step (ending the one before it, if it still runs). */
  addProgress(at: number, title: string): void {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const step = this.items[i]!;
      if (step.kind === 'progress' && step.state === 'running') {
        this.end(at, step, 'done');
        break;
      }
    }
    this.add(at, { id: `progress-${++this.#progressCount}`, kind: 'progress', title, state: 'running' });
  }

  /** Ends a step at `at` (its end time is kept from the first end). */
  end(at: number, step: ProgressStep, state: 'done' | 'failed'): void {
    step.state = state;
    const times = this.#times.get(step);
    if (times && times.endedAt === undefined) times.endedAt = Math.max(at, times.startedAt);
  }

  /** Ends every step still running. */
  closeAll(ok: boolean, at: number): void {
    for (const step of this.items) if (step.state === 'running') this.end(at, step, ok ? 'done' : 'failed');
  }

  /** The newest step still running, if any. */
  get current(): ProgressStep | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i]!.state === 'running') return this.items[i];
    return undefined;
  }

  /** When `step` started and ended (a copy); undefined for a step not held here. */
  timesOf(step: ProgressStep): StepTimes | undefined {
    const times = this.#times.get(step);
    return times && { ...times };
  }
}
