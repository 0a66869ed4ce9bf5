import { createMemorySpendLedger } from '../../../src/github/limits/memory-spend-ledger.ts';
import { describeSpendLedger } from './spend-ledger-contract.ts';

describeSpendLedger('memory', async () => ({ ledger: createMemorySpendLedger() }));
