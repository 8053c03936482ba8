/**
 * Preloaded into the measured hub process (with --expose-gc): SIGUSR2 runs a full collection, so memory read
 * right after is live data rather than garbage V8 has not got round to collecting. Fails the hub's start when
 * gc is not exposed, so a measurement never silently skips it.
 */
const collect = globalThis.gc;
if (typeof collect !== 'function') throw new Error('hub-gc-signal.ts needs node --expose-gc');
process.on('SIGUSR2', () => collect());
