const plain = /^[A-Za-z_$][\w$-]*$/;

/** A field path as people write it: `adapters.pi.baseUrl`, `adapters.pi.args[1]`, `pricing["custom/pi-2.5"]`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const text = String(segment);
      out +=
        plain.test(text) || /^[a-z0-9][a-z0-9-]*$/.test(text) ? (out ? `.${text}` : text) : `[${JSON.stringify(text)}]`;
    }
  }
  return out;
}
