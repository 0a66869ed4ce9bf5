export { copilotAdapter } from './copilot-adapter.ts';
export { copilotTranslator } from './copilot-translator.ts';
