/** What a tool returns for a file: a few hundred tokens of code, different every turn. */
export function fileText(turn: number): string {
  const lines = [`// src/module-${turn % 17}.ts (read at turn ${turn})`];
  for (let line = 0; line < 24; line += 1)
    lines.push(`export function handler${turn}_${line}(input: number): number { return input * ${line + turn} + ${line}; }`);
  return lines.join('\n');
}

/** The user's question at `turn`, different every turn. */
export function question(turn: number): string {
  return `Turn ${turn}: what does handler${turn}_3 in src/module-${turn % 17}.ts return for 2?`;
}

/** The `x-ollm-context` header as fields: `action` and each `key=value`. */
export function contextFields(value: string | null | undefined): Record<string, string> {
  const [action = '', ...rest] = (value ?? '').split('; ');
  const fields: Record<string, string> = { action };
  for (const field of rest) {
    const [name, ...parts] = field.split('=');
    fields[name!] = parts.join('=');
  }
  return fields;
}

/** Every tool message answers a call made before it in the same request, and every call is answered. */
export function pairingProblems(
  messages: readonly Record<string, unknown>[],
  callIdOf: (message: Record<string, unknown>) => string[],
  resultIdOf: (message: Record<string, unknown>) => string | undefined,
): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  for (const [index, message] of messages.entries()) {
    open.push(...callIdOf(message));
    if (message['role'] === 'tool') {
      const id = resultIdOf(message);
      const at = id === undefined ? -1 : open.indexOf(id);
      if (at < 0) problems.push(`message ${index} answers ${String(id)}, which no earlier message calls`);
      else open.splice(at, 1);
    }
  }
  for (const id of open) problems.push(`call ${id} has no result`);
  return problems;
}

/** An OpenAI chat message's tool call ids. */
export const openAICalls = (message: Record<string, unknown>): string[] =>
  ((message['tool_calls'] as { id: string }[] | undefined) ?? []).map((call) => call.id);
/** The call an OpenAI tool message answers. */
export const openAIResult = (message: Record<string, unknown>): string | undefined => message['tool_call_id'] as string | undefined;
