export * from './redactor.ts';
