/**
 * Config in one import. Note: store.ts loads `conf`; import read.ts/resolve.ts
 * directly where only reading is needed, to keep start-up fast.
 */
export * from './keys.js';
export * from './mask.js';
export * from './paths.js';
export * from './read.js';
export * from './resolve.js';
export * from './store.js';
export type * from './types.js';
