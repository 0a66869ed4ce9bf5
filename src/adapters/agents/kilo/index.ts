export { detectKiloAuth, kiloAdapter, kiloFlavor } from './kilo-adapter.ts';
