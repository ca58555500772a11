import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderOptions } from '@ollm/core';
import type { z } from 'zod';
import { InvalidConfigError } from '../errors/invalid-config-error.js';
import { mayHoldProjectConfig, PROJECT_CONFIG_FILES } from './config-file-candidates.js';
import { ollmHome } from '../storage/storage-id.js';
import type { OllmConfigInput } from './config-schema.js';
import { DEFAULT_OLLM_CONFIG, type OllmConfig } from './config-defaults.js';
import { registerConfigSecrets } from './register-config-secrets.js';

export interface LoadedConfig {
  readonly config: OllmConfig;
  /** Where each key's value came from: `default`, a file path, `env:NAME` or `flag`. */
  readonly sources: Readonly<Record<string, string>>;
  readonly files: readonly string[];
  /** What still works but should change: a file using the old `compression` section name. */
  readonly warnings: readonly string[];
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
 * from the working directory up to the project's root (module `ollm`: package.json key, `.ollmrc`,
 * `.ollmrc.json|yaml|yml`, `ollm.config.js|mjs|cjs|ts|json|yaml|yml`)
 * < environment (`OLLM_HOST`, `OLLM_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`) < flags.
 * Every file is validated; a bad value is an `InvalidConfigError` naming the file and the key.
 * The API key and the credentials of a server URL are registered as secrets for the process
 * (`registerConfigSecrets`), so nothing written or printed afterwards holds them.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const home = ollmHome(env);
  // Loaded on demand, and only where there is a file it could read: a command run where no config
  // is written should not pay for cosmiconfig and its loaders.
  let explorer: ReturnType<typeof import('cosmiconfig').cosmiconfig> | undefined;
  const explore = async () =>
    (explorer ??= (await import('cosmiconfig')).cosmiconfig('ollm', { cache: false, searchPlaces: [...PROJECT_CONFIG_FILES], searchStrategy: 'project' }));
  const warnings: string[] = [];
  // zod (the schema) loads only when there is something to validate: a file, a variable or a flag.
  // Importing it costs ~70 ms, most of a short command's start when no config is written anywhere.
  let schema: z.ZodType<OllmConfigInput> | undefined;
  // Validated as written (an error names the key the file uses), then with `compression` read as `compaction`.
  const validate = async (value: unknown, file: string): Promise<OllmConfigInput> => {
    if (isEmptyLayer(value)) return {};
    schema ??= (await import('./config-schema.js')).ollmConfigSchema;
    return withCompactionSection(validateWith(schema, value, file), file, warnings);
  };
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
    const loaded = await (await explore()).load(path);
    if (loaded && !loaded.isEmpty) {
      layer(await validate(loaded.config, path), path);
      files.push(path);
    }
    break;
  }
  const folder = options.cwd ?? process.cwd();
  const project = mayHoldProjectConfig(folder, process.cwd()) ? await (await explore()).search(folder) : null;
  if (project && !project.isEmpty && !files.includes(project.filepath)) {
    layer(await validate(project.config, project.filepath), project.filepath);
    files.push(project.filepath);
  }

  const fromEnvironment: OllmConfigInput = {};
  if (env.OLLM_HOST) fromEnvironment.host = env.OLLM_HOST;
  if (env.OLLM_MODEL) fromEnvironment.model = env.OLLM_MODEL;
  if (env.OPENAI_BASE_URL) fromEnvironment.baseURL = env.OPENAI_BASE_URL;
  const environmentSources: Record<string, string> = { host: 'env:OLLM_HOST', model: 'env:OLLM_MODEL', baseURL: 'env:OPENAI_BASE_URL' };
  merged = mergeConfig(merged, await validate(fromEnvironment, 'environment'));
  for (const key of Object.keys(fromEnvironment)) sources[key] = environmentSources[key]!;

  if (options.overrides) layer(await validate(options.overrides, 'flags'), 'flag');

  const config = {
    ...DEFAULT_OLLM_CONFIG,
    ...stripNested(merged),
    home,
    compaction: { ...DEFAULT_OLLM_CONFIG.compaction, ...merged.compaction },
    providerOptions: mergeProviderOptions(DEFAULT_OLLM_CONFIG.providerOptions, merged.providerOptions),
    snapshots: { ...DEFAULT_OLLM_CONFIG.snapshots, ...merged.snapshots },
    goals: { ...DEFAULT_OLLM_CONFIG.goals, ...merged.goals },
    recovery: { ...DEFAULT_OLLM_CONFIG.recovery, ...merged.recovery },
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
  } as OllmConfig;
  // The deprecated name of the section, for code written against ollm 0.1; not enumerated, so
  // `ollm config` and JSON show the section once.
  Object.defineProperty(config, 'compression', { get: () => config.compaction, enumerable: false });
  for (const key of flattenKeys(DEFAULT_OLLM_CONFIG as OllmConfigInput)) sources[key] ??= 'default';
  sources.home = env.OLLM_HOME ? 'env:OLLM_HOME' : 'default';
  if (env.OPENAI_API_KEY) sources.apiKey = 'env:OPENAI_API_KEY';
  // The key and URL credentials are secrets from the moment they are read (docs/security.md).
  warnings.push(...registerConfigSecrets(config));
  return { config, sources, files, warnings };
}

/** A layer that sets nothing (`{}`, or nothing at all): valid as it is, with no schema to load. */
function isEmptyLayer(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

/**
 * A layer with its `compression` section (the name ollm 0.1 used) read as `compaction`; keys
 * under `compaction` win when a file has both. Each layer that uses the old name adds a warning.
 */
function withCompactionSection(input: OllmConfigInput, file: string, warnings: string[]): OllmConfigInput {
  const { compression, ...rest } = input;
  if (compression === undefined) return input;
  warnings.push(`${file}: "compression" is the old name of the "compaction" section; it still works, but rename it`);
  return { ...rest, compaction: { ...compression, ...rest.compaction } };
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
    compaction: { ...base.compaction, ...next.compaction },
    providerOptions: mergeProviderOptions(base.providerOptions, next.providerOptions),
    snapshots: { ...base.snapshots, ...next.snapshots },
    goals: { ...base.goals, ...next.goals },
    recovery: { ...base.recovery, ...next.recovery },
  };
}

/** Per provider, key by key: a flag or a later file sets one option and keeps that provider's others. */
function mergeProviderOptions(base: ProviderOptions = {}, next: ProviderOptions = {}): ProviderOptions {
  const merged: Record<string, Readonly<Record<string, unknown>>> = { ...base };
  for (const [provider, options] of Object.entries(next)) merged[provider] = { ...base[provider], ...options };
  return merged;
}

function stripNested(config: OllmConfigInput): Omit<OllmConfigInput, 'compaction' | 'compression' | 'snapshots' | 'recovery' | 'goals' | 'providerOptions'> {
  const {
    compaction: _compaction,
    compression: _compression,
    snapshots: _snapshots,
    recovery: _recovery,
    goals: _goals,
    providerOptions: _providerOptions,
    ...rest
  } = config;
  return rest;
}

/** Dotted keys of the leaves; a provider's option (`providerOptions.trim.previewLines`) is one, whatever its value. */
function flattenKeys(value: object, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (path === 'providerOptions') {
      for (const [provider, options] of Object.entries(member as ProviderOptions))
        keys.push(...Object.keys(options).map((option) => `${path}.${provider}.${option}`));
    } else if (member !== null && typeof member === 'object' && !Array.isArray(member)) keys.push(...flattenKeys(member, path));
    else keys.push(path);
  }
  return keys;
}
