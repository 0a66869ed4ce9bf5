/** A generated block's start and end lines in a file people also edit by hand. */
export interface Markers {
  readonly start: string;
  readonly end: string;
}

/** A file that lacks a generated block's markers. */
export class MissingMarkersError extends Error {
  constructor(file: string, markers: Markers) {
    super(`${file}: the lines "${markers.start}" and "${markers.end}" must stand around the generated block`);
    this.name = 'MissingMarkersError';
  }
}

/** `text` with the lines between the two marker lines (kept) replaced by `block`. */
export function replaceBetweenMarkers(text: string, file: string, markers: Markers, block: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === markers.start.trim());
  const end = lines.findIndex((line, index) => index > start && line.trim() === markers.end.trim());
  if (start < 0 || end < 0) throw new MissingMarkersError(file, markers);
  const body = block.endsWith('\n') ? block.slice(0, -1) : block;
  return [...lines.slice(0, start + 1), ...(body === '' ? [] : body.split('\n')), ...lines.slice(end)].join('\n');
}
