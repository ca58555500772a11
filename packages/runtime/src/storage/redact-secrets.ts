/** Replaces every occurrence of each secret (e.g. an API key) by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length > 0 && result.includes(secret)) result = result.split(secret).join('[redacted]');
  }
  return result;
}
