const MAX_EXCERPT = 500;

/** Shortens a response body for a message: whitespace collapsed, at most 500 characters. */
export function bodyExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT)}…` : flat;
}

/**
 * What a failed response says: its JSON `message` or `error` (a string, or an object with a
 * `message`), else an excerpt of the body, else the status text. Never throws.
 */
export async function httpErrorDetail(response: Response): Promise<string> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    return response.statusText || 'no response body';
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>;
      if (typeof record.message === 'string') return record.message;
      if (typeof record.error === 'string') return record.error;
      const nested = record.error as Record<string, unknown> | null | undefined;
      if (typeof nested === 'object' && nested !== null && typeof nested.message === 'string') return nested.message;
    }
  } catch {
    // Not JSON: the text itself.
  }
  return bodyExcerpt(text) || response.statusText || 'no response body';
}
