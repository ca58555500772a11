import { InvalidArgumentError } from '@ollm/core';
import { loadConfig, validateStorageId } from '@ollm/runtime';
import type { LoadedConfig, OllmConfigInput } from '@ollm/runtime';
import type { CliIo } from '../cli-io.js';
import { modelApiFromFlags } from '../model/model-api-from-flags.js';
import { checkServerUrl, parseTimeoutSeconds } from '../model/server-url.js';
import { parseProviderOptionFlags } from '../provider-options.js';

/** The chat's command-line flags, before config is applied. */
export interface ChatFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly host?: string;
  readonly api?: string;
  readonly baseUrl?: string;
  readonly contextSize?: string;
  readonly replyReserve?: string;
  readonly timeout?: string;
  readonly session?: string;
  readonly force?: boolean;
  /** `--provider-option PROVIDER.KEY=VALUE`, every occurrence. */
  readonly providerOption?: readonly string[];
}

export interface ChatSettings {
  readonly loaded: LoadedConfig;
  /** The window from `--context-size` or a config file / environment; undefined: ask the model. */
  readonly contextSize: number | undefined;
  readonly sessionId: string | undefined;
  /** `--force`: take the session's lock even from another running ollm. */
  readonly force: boolean;
}

/** The model's window when neither flags, config nor the server say. */
export const FALLBACK_CONTEXT_SIZE = 16_384;

/** Flags override config (`loadConfig`: defaults < user file < project file < environment < flags). */
export async function resolveChatSettings(io: CliIo, flags: ChatFlags): Promise<ChatSettings> {
  const overrides: OllmConfigInput = {};
  if (flags.provider !== undefined) overrides.provider = flags.provider;
  if (flags.model !== undefined) overrides.model = flags.model;
  if (flags.host !== undefined) overrides.host = checkServerUrl('host', flags.host);
  if (flags.baseUrl !== undefined) overrides.baseURL = checkServerUrl('base-url', flags.baseUrl);
  if (flags.timeout !== undefined) overrides.timeout = parseTimeoutSeconds(flags.timeout);
  // --base-url alone means the OpenAI-compatible API (shared with `ollm compact`).
  const api = modelApiFromFlags(flags);
  if (api !== undefined) overrides.api = api;
  if (flags.contextSize !== undefined) overrides.contextSize = parseTokenCount('context-size', flags.contextSize, 512);
  if (flags.replyReserve !== undefined) overrides.compaction = { replyReserve: parseTokenCount('reply-reserve', flags.replyReserve, 16) };
  if (flags.providerOption !== undefined && flags.providerOption.length > 0) overrides.providerOptions = parseProviderOptionFlags(flags.providerOption);
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env as NodeJS.ProcessEnv, overrides });
  const contextSize = loaded.sources['contextSize'] === 'default' ? undefined : loaded.config.contextSize;
  if (flags.session !== undefined) validateStorageId('session', flags.session);
  return { loaded, contextSize, sessionId: flags.session, force: flags.force === true };
}

/** A flag's token count: a whole number, `_` or `,` allowed between digits (`16_384`, `16,384`). */
function parseTokenCount(flag: string, text: string, minimum: number): number {
  const trimmed = text.trim();
  const count = /^\d+(?:[_,]\d+)*$/.test(trimmed) ? Number(trimmed.replace(/[_,]/g, '')) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < minimum) {
    throw new InvalidArgumentError({ argument: flag, message: `Invalid --${flag} "${text}": use a whole number of tokens, at least ${minimum}.` });
  }
  return count;
}
