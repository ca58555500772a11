import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { InvalidConfigError } from '../errors/invalid-config-error.js';
import { ollmHome } from '../storage/storage-id.js';
import type { OllmConfigInput } from './config-schema.js';
import { DEFAULT_OLLM_CONFIG, type OllmConfig } from './config-defaults.js';

export interface LoadedConfig {
  readonly config: OllmConfig;
  /** Where each key's value came from: `default`, a file path, `env:NAME` or `flag`. */
  readonly sources: Readonly<Record<string, string>>;
  readonly files: readonly string[];
}

export interface LoadConfigOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Values from command-line flags: the highest precedence. */
  readonly overrides?: OllmConfigInput;
}

const USER_FILES = ['config.json', 'config.yaml', 'config.yml'];

/**
 * The effective config: defaults < user file under `$OLLM_HOME` < project file found by cosmiconfig
 * (module `ollm`: package.json key, `.ollmrc`, `.ollmrc.json|yaml|yml`, `ollm.config.js|mjs|cjs|ts`)
 * < environment (`OLLM_HOST`, `OLLM_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`) < flags.
 * Every file is validated; a bad value is an `InvalidConfigError` naming the file and the key.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const home = ollmHome(env);
  // Loaded on demand: commands that need no config should not pay for cosmiconfig's loaders.
  const { cosmiconfig } = await import('cosmiconfig');
  // zod too: importing @ollm/core must stay cheap for commands that never read config.
  const { ollmConfigSchema } = await import('./config-schema.js');
  const validate = (value: unknown, file: string) => validateWith(ollmConfigSchema, value, file);
  const explorer = cosmiconfig('ollm', { cache: false });
  const sources: Record<string, string> = {};
  const files: string[] = [];
  let merged: OllmConfigInput = {};

  const layer = (input: OllmConfigInput, source: string) => {
    merged = mergeConfig(merged, input);
    for (const key of flattenKeys(input)) sources[key] = source;
  };

  for (const name of USER_FILES) {
    const path = join(home, name);
    if (!existsSync(path)) continue;
    const loaded = await explorer.load(path);
    if (loaded && !loaded.isEmpty) {
      layer(validate(loaded.config, path), path);
      files.push(path);
    }
    break;
  }
  const project = await explorer.search(options.cwd ?? process.cwd());
  if (project && !project.isEmpty && !files.includes(project.filepath)) {
    layer(validate(project.config, project.filepath), project.filepath);
    files.push(project.filepath);
  }

  const fromEnvironment: OllmConfigInput = {};
  if (env.OLLM_HOST) fromEnvironment.host = env.OLLM_HOST;
  if (env.OLLM_MODEL) fromEnvironment.model = env.OLLM_MODEL;
  if (env.OPENAI_BASE_URL) fromEnvironment.baseURL = env.OPENAI_BASE_URL;
  const environmentSources: Record<string, string> = { host: 'env:OLLM_HOST', model: 'env:OLLM_MODEL', baseURL: 'env:OPENAI_BASE_URL' };
  merged = mergeConfig(merged, validate(fromEnvironment, 'environment'));
  for (const key of Object.keys(fromEnvironment)) sources[key] = environmentSources[key]!;

  if (options.overrides) layer(validate(options.overrides, 'flags'), 'flag');

  const config: OllmConfig = {
    ...DEFAULT_OLLM_CONFIG,
    ...stripNested(merged),
    home,
    compression: { ...DEFAULT_OLLM_CONFIG.compression, ...merged.compression },
    snapshots: { ...DEFAULT_OLLM_CONFIG.snapshots, ...merged.snapshots },
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  };
  for (const key of flattenKeys(DEFAULT_OLLM_CONFIG as OllmConfigInput)) sources[key] ??= 'default';
  sources.home = env.OLLM_HOME ? 'env:OLLM_HOME' : 'default';
  if (env.OPENAI_API_KEY) sources.apiKey = 'env:OPENAI_API_KEY';
  return { config, sources, files };
}

function validateWith(schema: z.ZodType<OllmConfigInput>, value: unknown, file: string): OllmConfigInput {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InvalidConfigError({ file, key: describeKey(issue), reason: issue.message });
}

function describeKey(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') return [...path, ...issue.keys].join('.');
  return path.length > 0 ? path.join('.') : '(root)';
}

function mergeConfig(base: OllmConfigInput, next: OllmConfigInput): OllmConfigInput {
  return {
    ...base,
    ...next,
    compression: { ...base.compression, ...next.compression },
    snapshots: { ...base.snapshots, ...next.snapshots },
  };
}

function stripNested(config: OllmConfigInput): Omit<OllmConfigInput, 'compression' | 'snapshots'> {
  const { compression: _compression, snapshots: _snapshots, ...rest } = config;
  return rest;
}

function flattenKeys(value: object, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (member !== null && typeof member === 'object' && !Array.isArray(member)) keys.push(...flattenKeys(member, path));
    else keys.push(path);
  }
  return keys;
}
