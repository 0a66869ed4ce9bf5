import { acpAdapter } from '../../../src/adapters/acp/index.ts';
import { GEMINI_NPM_PACKAGE, GEMINI_TESTED_VERSION } from '../../../src/adapters/gemini/gemini-adapter.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as gemini } from './gemini.live.ts';

/**
 * Gemini CLI in ACP mode (`gemini --acp`), against the fake model server with the same settings as
 * the stream-json spec. Recordings: test/fixtures/streams/acp-gemini/.
 */
export const spec: LiveSpec = {
  ...gemini,
  adapter: 'acp-gemini',
  create: () =>
    acpAdapter(
      'gemini-acp',
      { binary: 'gemini', args: ['--acp'], secretEnv: ['GEMINI_API_KEY'] },
      {
        expandTemplates: false,
        program: {
          command: 'gemini',
          versionArgs: ['--version'],
          minVersion: GEMINI_TESTED_VERSION,
          install: [{ type: 'npm', command: `npm install -g ${GEMINI_NPM_PACKAGE}` }],
          npmPackage: GEMINI_NPM_PACKAGE,
          testedVersion: GEMINI_TESTED_VERSION,
          verifiedLive: true,
        },
      },
    ),
};
