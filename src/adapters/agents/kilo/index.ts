export {
  detectKiloAuth,
  KILO_NPM_PACKAGE,
  KILO_TESTED_VERSION,
  type KiloAdapterOptions,
  kiloAdapter,
  kiloFlavor,
} from './kilo-adapter.ts';
