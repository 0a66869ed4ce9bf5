export { genericHttpAdapter } from './generic-http-adapter.ts';
export {
  type GenericHttpAdapterConfig,
  type GenericHttpAdapterConfigInput,
  genericHttpAdapterConfigSchema,
} from './generic-http-config.ts';
