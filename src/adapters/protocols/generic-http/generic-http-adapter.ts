import { ADAPTER_SPECIFICATION_VERSION, type Adapter } from '../../../core/adapter/index.ts';
import { configuredCapabilities } from '../../shared/configured-capabilities.ts';
import { type GenericHttpAdapterConfigInput, genericHttpAdapterConfigSchema } from './generic-http-config.ts';
import { openGenericHttpSession } from './generic-http-session.ts';

/**
 * The `generic-http` profile: each run sends its prompt as one HTTP request to `base_url` and
 * returns the response body as the output (request-response; no tools, no sessions).
 */
export function genericHttpAdapter(id: string, input: GenericHttpAdapterConfigInput): Adapter {
  const config = genericHttpAdapterConfigSchema.parse(input);
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName: `${id} (HTTP ${config.method} ${config.base_url})`,
    capabilities: configuredCapabilities({
      platforms: ['darwin', 'linux', 'win32'],
      sessionPersistence: 'none',
      execModel: 'request-response',
    }),
    ...(config.costModel ? { costModel: config.costModel } : {}),
    ...(config.secretEnv?.length ? { secretEnv: config.secretEnv } : {}),
    launch: { kind: 'session', open: (ctx) => openGenericHttpSession(ctx, config) },
  };
}
