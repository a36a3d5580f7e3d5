export * from './catalog.js';
export * from './messages.js';
export * from './requests.js';
export * from './routes.js';
export * from './schemas.js';
