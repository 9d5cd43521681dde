/**
 * @module @linkconfig/server
 * The Link Config Service server: the tRPC procedures (one definition), the REST routes and `/trpc` on
 * Hono, the services, and the storage adapters behind `ConfigRepository`.
 */
export { appRouter } from './routers/app-router.js';
export type { AppRouter } from './routers/app-router.js';
export { createCallerFactory } from './trpc.js';
export { createContextInner } from './context.js';
export type { Context } from './context.js';
export { createApp } from './http/app.js';
export type { AppOptions } from './http/app.js';
export { startServer, DEFAULT_APP_DIR } from './start-server.js';
export type { RunningServer, StartOptions } from './start-server.js';
export { loadSettings } from './config/settings.js';
export type { Settings } from './config/settings.js';
export { createServices } from './services/services.js';
export type { Services, ServicesOptions } from './services/services.js';
export { createSqliteConfigRepository } from './storage/sqlite/sqlite-config-repository.js';
export { createMemoryConfigRepository } from './storage/memory/memory-config-repository.js';
export type {
  ConfigRepository,
  StoredConfig,
} from './storage/config-repository.js';
export type { KeyRepository, StoredKey } from './storage/key-repository.js';
export { KeyService } from './keys/key-service.js';
export { DEMO_CONFIG } from './seed/demo-config.js';
