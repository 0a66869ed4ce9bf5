import { parentPort, workerData } from 'node:worker_threads';
import { measureTranslation } from './translation-measure.ts';

/**
 * One adapter's translation measured in a worker thread of its own: a fresh V8 isolate, whose
 * compiled code and type feedback no other adapter's translator has shaped (as in `agent-mux run`
 * and the Action, where a process translates one agent). Posts a `TranslationMeasure`.
 */
const { adapter, targetBytes } = workerData as { adapter: string; targetBytes: number };
parentPort?.postMessage(await measureTranslation(adapter, targetBytes));
