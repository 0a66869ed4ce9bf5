export * from './cost-tracker.ts';
export * from './price-usage.ts';
export * from './pricing-table.ts';
