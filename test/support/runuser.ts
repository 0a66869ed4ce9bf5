import { existsSync } from 'node:fs';

/** `runuser` (util-linux), by its path: it lives in /usr/sbin, which a PATH may leave out. */
export const RUNUSER =
  ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) => existsSync(path)) ?? 'runuser';
