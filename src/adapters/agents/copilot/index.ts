export { COPILOT_NPM_PACKAGE, COPILOT_TESTED_VERSION, copilotAdapter } from './copilot-adapter.ts';
export { copilotTranslator } from './copilot-translator.ts';
