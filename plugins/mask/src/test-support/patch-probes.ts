import type { Message } from '@ollm/core';
import { partText } from '@ollm/core';

/**
 * What a compacted context should still know about the agent's final patch (fixtures README):
 * the file paths it touches (`+++ b/<path>`), the function / class named in each hunk header
 * (text after `@@ ... @@`), and the `def` / `class` names in added lines.
 */
export function patchProbes(patch: string): string[] {
  const probes = new Set<string>();
  for (const line of patch.split('\n')) {
    const path = /^\+\+\+ b\/(.+)$/.exec(line);
    if (path) {
      probes.add(path[1]!.trim());
      continue;
    }
    const hunk = /^@@ [^@]* @@ ?(.*)$/.exec(line);
    if (hunk) {
      const name = definedName(hunk[1]!) ?? hunk[1]!.trim();
      if (name.length > 0) probes.add(name);
      continue;
    }
    if (line.startsWith('+') && !line.startsWith('+++')) {
      const name = definedName(line.slice(1));
      if (name) probes.add(name);
    }
  }
  return [...probes];
}

function definedName(code: string): string | undefined {
  return /\b(?:def|class)\s+([A-Za-z_]\w*)/.exec(code)?.[1];
}

/**
 * The probes that occur somewhere in `messages`: in any part (tool calls and assistant text
 * included), or with `toolOutputsOnly` only in tool results, the part masking replaces.
 */
export function presentProbes(probes: readonly string[], messages: readonly Message[], toolOutputsOnly = false): string[] {
  const text = messages.flatMap((message) => message.parts.filter((part) => !toolOutputsOnly || part.type === 'tool-result').map(partText)).join('\n');
  return probes.filter((probe) => text.includes(probe));
}
