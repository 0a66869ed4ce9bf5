import { run } from './run.ts';

await run();
