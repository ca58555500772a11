import { InvalidArgumentError, type ProviderOptions } from '@ollm/core';

/** Commander's collector for a repeatable `--provider-option`: every occurrence, in order. */
export function collectProviderOption(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/**
 * `--provider-option PROVIDER.KEY=VALUE`, repeatable, as `providerOptions`: `trim.previewLines=0`
 * is `{ trim: { previewLines: 0 } }`. VALUE is read as JSON when it is JSON (numbers, booleans,
 * `null`, arrays, objects, quoted strings), otherwise as the text itself; a later flag for the
 * same key wins. The provider name ends at the first dot; the key is the rest.
 */
export function parseProviderOptionFlags(flags: readonly string[]): ProviderOptions {
  const options: Record<string, Record<string, unknown>> = {};
  for (const flag of flags) {
    const match = /^([^.=\s]+)\.([^=\s]+)=(.*)$/s.exec(flag.trim());
    if (!match) {
      throw new InvalidArgumentError({
        argument: 'provider-option',
        message: `Invalid --provider-option "${flag}": use PROVIDER.KEY=VALUE, e.g. trim.previewLines=0.`,
      });
    }
    const [, provider, key, text] = match as unknown as [string, string, string, string];
    (options[provider] ??= {})[key] = parseValue(text);
  }
  return options;
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The names in `providerOptions` no provider on offer has (a typo, or a plugin not installed or
 * off with `--no-plugins`): their options reach nothing, which the CLI says as a warning.
 */
export function unusedProviderOptions(options: ProviderOptions, available: ReadonlySet<string>): string[] {
  return Object.keys(options)
    .filter((name) => !available.has(name))
    .map((name) => `providerOptions.${name}: no provider "${name}" is loaded, so its options are not used`);
}
