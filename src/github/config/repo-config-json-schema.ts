import { z } from 'zod';
import { repoConfigSchema } from './repo-config-schema.ts';

/** The `$id` of `schema/agent-mux.schema.json`. */
export const REPO_CONFIG_SCHEMA_ID =
  'https://raw.githubusercontent.com/agent-mux/agent-mux/main/schema/agent-mux.schema.json';

/** The `$schema` of `schema/agent-mux.schema.json`: draft-07, the draft editors read best. */
export const REPO_CONFIG_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/**
 * The JSON Schema (draft-07, what the YAML editor extension reads) of `.github/agent-mux.yml`
 * as people write it (zod's input side: durations as strings, every field optional), with
 * descriptions for editors and an `$id` that resolves to the committed file.
 * `scripts/generate-schema.ts` writes it to `schema/agent-mux.schema.json`.
 */
export function repoConfigJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(repoConfigSchema, { io: 'input', target: 'draft-07' });
  return { $schema, $id: REPO_CONFIG_SCHEMA_ID, ...rest };
}

/** The schema file's text: two-space JSON and a final newline. */
export function repoConfigJsonSchemaText(): string {
  return `${JSON.stringify(repoConfigJsonSchema(), null, 2)}\n`;
}
