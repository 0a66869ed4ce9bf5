import { randomBytes } from 'node:crypto';

/**
 * The letters of approval ids: Crockford's base32 in lower case (digits and letters without
 * `i`, `l`, `o`, `u`), so an id read aloud or from a screen is not mistyped.
 */
export const APPROVAL_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** The length of an approval id: 8 characters, 40 random bits. */
export const APPROVAL_ID_LENGTH = 8;
/** The shortest prefix of an approval id that GitHub commands accept in its place. */
export const APPROVAL_ID_MIN_PREFIX = 4;

/** One random approval id, such as `k3v9q2xa`: short enough to type, URL-safe, lower case. */
export function createApprovalId(): string {
  const bytes = randomBytes(APPROVAL_ID_LENGTH);
  let id = '';
  for (const byte of bytes) id += APPROVAL_ID_ALPHABET[byte & 31];
  return id;
}

/**
 * A maker of approval ids that never gives the same id twice (ids are unique within a run).
 * After ten draws that were all taken, it lengthens the last one with a counter rather than
 * loop forever. `random` is replaceable for tests.
 */
export function createApprovalIdSource(random: () => string = createApprovalId): () => string {
  const issued = new Set<string>();
  return () => {
    let id = random();
    for (let attempt = 1; issued.has(id) && attempt < 10; attempt++) id = random();
    const base = id;
    for (let n = 2; issued.has(id); n++) id = `${base}-${n}`;
    issued.add(id);
    return id;
  };
}
