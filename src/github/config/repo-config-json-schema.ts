import { z } from 'zod';
import { repoConfigSchema } from './repo-config-schema.ts';

/** The `$id` of `schema/agent-mux.schema.json`. */
export const REPO_CONFIG_SCHEMA_ID =
  'https://raw.githubusercontent.com/agent-mux/agent-mux/main/schema/agent-mux.schema.json';

/**
 * The JSON Schema (draft 2020-12) of `.github/agent-mux.yml` as people write it (zod's input
 * side: durations as strings, every field optional), with descriptions for editors.
 * `scripts/generate-schema.ts` writes it to `schema/agent-mux.schema.json`.
 */
export function repoConfigJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(repoConfigSchema, { io: 'input', target: 'draft-2020-12' });
  return { $schema, $id: REPO_CONFIG_SCHEMA_ID, ...rest };
}

/** The schema file's text: two-space JSON and a final newline. */
export function repoConfigJsonSchemaText(): string {
  return `${JSON.stringify(repoConfigJsonSchema(), null, 2)}\n`;
}
