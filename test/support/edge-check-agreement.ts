import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { z } from 'zod';

type Rec = Record<string, unknown>;

const FIXTURES = new URL('../fixtures/streams/', import.meta.url);
/** Values a field is set to in the variants: of another type, empty, or null. */
const ODD: readonly unknown[] = [7, '', {}, [], null];

/** The record without each field but `type` in turn, and with each set to every odd value. */
function variants(value: Rec): Rec[] {
  return Object.keys(value)
    .filter((key) => key !== 'type')
    .flatMap((key) => {
      const { [key]: _, ...without } = value;
      return [without, ...ODD.map((odd) => ({ ...value, [key]: odd }))];
    });
}

/** The JSON object lines of every `.jsonl` recording under `test/fixtures/streams/<stream>/`. */
function recordedLines(stream: string): Rec[] {
  const dir = new URL(`${stream}/`, FIXTURES);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(new URL(name, dir), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as unknown)
    .filter((value): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value));
}

export interface EdgeCheck<R> {
  /** The translator's table of what a malformed record of each known type lacks: its keys are the known types. */
  malformed: Readonly<Record<string, string>>;
  schema: z.ZodType;
  /** The hand check under test: the record, `'unknown'` or `'malformed'`. */
  check: (value: Rec) => R | 'unknown' | 'malformed';
  /** The recordings to draw records from (`claude`, `pi`, …). */
  streams: readonly string[];
  /** Object fields whose own variants are tried too (Codex's `item`, Copilot's `data`). */
  nested?: readonly string[];
  /** Records to try besides one `{ type }` a known type, a few unknown types and the recordings. */
  extra?: readonly Rec[];
}

/**
 * Holds a translator's hand-written edge check to its zod schema: for each bare record of a known
 * or unknown type, each recorded line and each variant of them (a field removed, or of another
 * type), the check says `'unknown'` for a type the table does not know, `'malformed'` for one the
 * schema refuses, and else gives the record itself, not zod's copy.
 */
export function expectEdgeCheckAgrees<R>(edge: EdgeCheck<R>): void {
  const records: Rec[] = [...Object.keys(edge.malformed), 'toString', 'brand_new', ''].map((type) => ({ type }));
  records.push(...(edge.extra ?? []));
  for (const value of edge.streams.flatMap(recordedLines)) {
    records.push(value, ...variants(value));
    for (const key of edge.nested ?? []) {
      const inner = value[key];
      if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
        records.push(...variants(inner as Rec).map((changed) => ({ ...value, [key]: changed })));
      }
    }
  }
  for (const value of records) {
    const label = JSON.stringify(value);
    const got = edge.check(value);
    const known = typeof value.type === 'string' && Object.hasOwn(edge.malformed, value.type);
    const parsed = edge.schema.safeParse(value);
    if (!known) expect(got, label).toBe('unknown');
    else if (!parsed.success) expect(got, label).toBe('malformed');
    else expect(got, label).toBe(value);
  }
}
