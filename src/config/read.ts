/**
 * A read-only view of the config file with plain fs: resolution runs on every
 * command, and loading `conf` (and its validator) there would slow start-up.
 * Writes go through ConfigStore (store.ts), which uses conf.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { configFilePath, unsafeConfigProblem } from './paths.js';
import type { ConfigData, Profile } from './types.js';

export interface ConfigView {
  readonly path: string;
  currentProfileName(): string | undefined;
  profileNames(): string[];
  getProfile(name: string): Profile | undefined;
}

export function parseConfigText(text: string, path: string): ConfigData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`The config file ${path} is not valid JSON.`, 'fix it by hand or delete it and run `jobfit login` again');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError(`The config file ${path} does not hold a JSON object.`, 'fix it by hand or delete it and run `jobfit login` again');
  }
  return data as ConfigData;
}

export function readConfigFile(path: string): ConfigData {
  // Another user's file, or one others can write, is never used: its base URL could catch the key.
  const unsafe = unsafeConfigProblem(path);
  if (unsafe) throw new UsageError(unsafe);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`Cannot read the config file ${path}: ${(err as Error).message}`);
  }
  return parseConfigText(text, path);
}

export function viewOf(data: ConfigData, path: string): ConfigView {
  const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
  return {
    path,
    currentProfileName: () => (typeof data.current_profile === 'string' && data.current_profile ? data.current_profile : undefined),
    profileNames: () => Object.keys(profiles).sort(),
    getProfile: (name) => (Object.hasOwn(profiles, name) ? profiles[name] : undefined),
  };
}

export function readConfigView(env: Record<string, string | undefined> = process.env): ConfigView {
  const path = configFilePath(env);
  return viewOf(readConfigFile(path), path);
}
