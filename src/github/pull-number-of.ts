/** `https://github.com/o/r/pull/12` → 12; undefined for anything else. */
export function pullNumberOf(url: string | undefined): number | undefined {
  const match = url === undefined ? null : /\/pull\/(\d+)\/?$/.exec(url);
  return match ? Number(match[1]) : undefined;
}
