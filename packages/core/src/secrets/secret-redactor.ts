import { REDACTED, stripUrlCredentials } from './strip-url-credentials.js';

/**
 * Secrets at least this long are replaced wherever they occur. Shorter ones (1 to 3 characters)
 * are replaced only where they stand alone, not inside a word: a key `ab` cannot be told from the
 * `ab` of "about", and replacing it there would destroy the text without hiding anything.
 */
export const MINIMUM_SECRET_LENGTH = 4;

/**
 * What a redactor does with `scheme://user:password@` in text it is not told about: `strip` for
 * what ollm prints (errors, logs, replies), `keep` for what it stores (history, snapshots, the
 * recovery store, exports, RESUME files). Stored text is the user's conversation: a URL with
 * credentials quoted in a test file is content, and recovery must give it back byte for byte.
 * Registered secrets (the API key, a configured server's password) are replaced either way.
 */
export type UrlCredentials = 'strip' | 'keep';

export interface SecretRedactorOptions {
  /** Default `strip`. */
  readonly urlCredentials?: UrlCredentials;
}

interface SecretPattern {
  readonly text: string;
  /** Only where no letter, digit, `_` or `-` touches it on either side. */
  readonly standalone: boolean;
}

const SHARED = Symbol.for('ollm.secrets.registered');

interface SharedSecrets {
  readonly secrets: string[];
  version: number;
}

/**
 * The process's secrets, kept on `globalThis` under a `Symbol.for` key, so that every copy of
 * @ollm/core loaded in the process (a plugin's own, the sources under test) shares them.
 */
function shared(): SharedSecrets {
  const holder = globalThis as { [SHARED]?: SharedSecrets };
  holder[SHARED] ??= { secrets: [], version: 0 };
  return holder[SHARED];
}

/**
 * Registers a secret (an API key, the password of a URL) for the whole process: from then on
 * every writer that goes through a `SecretRedactor` (the recovery store, session history,
 * snapshots, the active context, exports, RESUME files, the CLI's output and error messages)
 * replaces it. `loadConfig` registers the keys and URL credentials it reads. Empty values are
 * ignored.
 */
export function registerSecret(secret: string | undefined): void {
  if (secret === undefined || secret.length === 0) return;
  const state = shared();
  if (state.secrets.includes(secret)) return;
  state.secrets.push(secret);
  state.version += 1;
}

/** The secrets registered in this process, in the order they were registered. */
export function registeredSecrets(): readonly string[] {
  return [...shared().secrets];
}

/** Forgets every registered secret. For tests, which run many configurations in one process. */
export function forgetRegisteredSecrets(): void {
  const state = shared();
  state.secrets.length = 0;
  state.version += 1;
}

/**
 * The forms a secret takes in text: as is, inside a JSON string (`"` and `\` escaped: content
 * saved as serialised JSON), inside a JSON string inside a JSON string, and percent-encoded.
 */
function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const nested = JSON.stringify(json).slice(1, -1);
  let encoded = secret;
  try {
    encoded = encodeURIComponent(secret);
  } catch {
    // A lone surrogate cannot be percent-encoded: the other forms remain.
  }
  return [...new Set([secret, json, nested, encoded])];
}

function isWordCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2d ||
    (code > 0x7f && /[\p{L}\p{N}]/u.test(String.fromCharCode(code)))
  );
}

function replaceStandalone(text: string, secret: string): string {
  let result = '';
  let copied = 0;
  for (let index = text.indexOf(secret); index >= 0; index = text.indexOf(secret, index + 1)) {
    if (index < copied) continue;
    const end = index + secret.length;
    const alone = (index === 0 || !isWordCode(text.charCodeAt(index - 1))) && (end === text.length || !isWordCode(text.charCodeAt(end)));
    if (!alone) continue;
    result += `${text.slice(copied, index)}${REDACTED}`;
    copied = end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * The one redaction step every writer goes through, applied to text before it is serialised
 * or printed: replaces the process's registered secrets and this redactor's own by `[redacted]`
 * (in each form they take in text: raw, JSON-escaped, percent-encoded), and the credentials of
 * every URL. Keys with quotes or backslashes are found, because the text is redacted before it
 * becomes JSON (`stringify`), not after.
 */
export class SecretRedactor {
  private readonly own: string[];
  private readonly urlCredentials: UrlCredentials;
  private patterns: SecretPattern[] = [];
  private builtFor = -1;

  constructor(secrets: Iterable<string | undefined> = [], options: SecretRedactorOptions = {}) {
    this.own = [...secrets].filter((secret): secret is string => secret !== undefined && secret.length > 0);
    this.urlCredentials = options.urlCredentials ?? 'strip';
  }

  /** The redactor's own secrets and the process's registered ones. */
  get secrets(): readonly string[] {
    return [...new Set([...this.own, ...shared().secrets])];
  }

  /** `text` with every secret and every URL's credentials replaced by `[redacted]`. */
  redact(text: string): string {
    let result = this.urlCredentials === 'strip' ? stripUrlCredentials(text) : text;
    for (const pattern of this.currentPatterns()) {
      if (!result.includes(pattern.text)) continue;
      result = pattern.standalone ? replaceStandalone(result, pattern.text) : result.split(pattern.text).join(REDACTED);
    }
    return result;
  }

  /** Whether `text` holds a secret or URL credentials (`redact` would change it). */
  finds(text: string): boolean {
    return this.redact(text) !== text;
  }

  /**
   * `JSON.stringify(value, null, space)` with every string in it (values and keys) redacted
   * first, so a secret is found whatever JSON would have escaped in it.
   */
  stringify(value: unknown, space?: number): string {
    const replacer = (_key: string, member: unknown): unknown => {
      if (typeof member === 'string') return this.redact(member);
      if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
      const entries = Object.entries(member as Record<string, unknown>);
      if (!entries.some(([name]) => this.finds(name))) return member;
      return Object.fromEntries(entries.map(([name, inner]) => [this.redact(name), inner]));
    };
    return JSON.stringify(value, replacer, space);
  }

  /**
   * The longest forms first, so a secret that contains another is replaced whole. Rebuilt when
   * a secret is registered.
   */
  private currentPatterns(): readonly SecretPattern[] {
    const state = shared();
    if (this.builtFor === state.version) return this.patterns;
    const patterns = new Map<string, SecretPattern>();
    for (const secret of [...this.own, ...state.secrets]) {
      const standalone = secret.length < MINIMUM_SECRET_LENGTH;
      for (const form of formsOf(secret)) if (!patterns.has(form) || !standalone) patterns.set(form, { text: form, standalone });
    }
    this.patterns = [...patterns.values()].sort((a, b) => b.text.length - a.text.length);
    this.builtFor = state.version;
    return this.patterns;
  }
}

const processRedactors: Record<UrlCredentials, SecretRedactor> = {
  strip: new SecretRedactor([], { urlCredentials: 'strip' }),
  keep: new SecretRedactor([], { urlCredentials: 'keep' }),
};

function redactorFor(secrets: readonly string[], urlCredentials: UrlCredentials): SecretRedactor {
  return secrets.length === 0 ? processRedactors[urlCredentials] : new SecretRedactor(secrets, { urlCredentials });
}

/**
 * `text` with the process's registered secrets and `secrets` replaced by `[redacted]`, and every
 * URL's credentials too unless `urlCredentials: 'keep'` (a `SecretRedactor`).
 */
export function redactSecrets(text: string, secrets: readonly string[] = [], options: SecretRedactorOptions = {}): string {
  return redactorFor(secrets, options.urlCredentials ?? 'strip').redact(text);
}

/** `JSON.stringify` with every string redacted first (`SecretRedactor.stringify`); stored text, so URL credentials are kept unless asked. */
export function stringifyRedacted(
  value: unknown,
  { secrets = [], space, urlCredentials = 'keep' }: { secrets?: readonly string[]; space?: number; urlCredentials?: UrlCredentials } = {},
): string {
  return redactorFor(secrets, urlCredentials).stringify(value, space);
}
