import type { z } from 'zod';
import { genericHttpAdapterConfigSchema } from '../../../core/config/adapter-config-schema.ts';

export { genericHttpAdapterConfigSchema };
export type GenericHttpAdapterConfig = z.output<typeof genericHttpAdapterConfigSchema>;
export type GenericHttpAdapterConfigInput = z.input<typeof genericHttpAdapterConfigSchema>;
