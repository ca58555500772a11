import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Message, MessagePart } from '@ollm/core';
import { readTranscript } from '@ollm/transcripts';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/** The real transcripts the simulation draws its turns from: every SWE-agent trajectory, then the tau-bench sample. */
export function fixtureFiles(): string[] {
  const swe = `${FIXTURES}swe-agent-django/`;
  const trajectories = readdirSync(swe)
    .filter((name) => name.endsWith('.traj.json'))
    .sort()
    .map((name) => swe + name);
  return [...trajectories, `${FIXTURES}tau-bench-airline/gpt-4o-airline.sample.json`];
}

/** One turn of a source conversation: a user message alone, or an assistant message with the tool messages answering it. */
export interface SourceTurn {
  /** `file#conversation`, so a driver can tell where one task ends and the next begins. */
  readonly source: string;
  readonly messages: readonly Message[];
}

/** Every turn of every conversation in `files`, in order; system messages are left out (the runtime owns the system prompt). */
export async function readSourceTurns(files: readonly string[] = fixtureFiles()): Promise<SourceTurn[]> {
  const key = files.join('\n');
  let pending = parsed.get(key);
  if (!pending) parsed.set(key, (pending = parseSourceTurns(files)));
  return pending;
}

// Parsing the fixtures takes a while; runs in one process share the result (turns are immutable).
const parsed = new Map<string, Promise<SourceTurn[]>>();

async function parseSourceTurns(files: readonly string[]): Promise<SourceTurn[]> {
  const turns: SourceTurn[] = [];
  for (const file of files) {
    const { conversations } = await readTranscript(file);
    for (const conversation of conversations) {
      const source = `${file.split('/').at(-1)}#${conversation.id}`;
      let current: Message[] | undefined;
      for (const message of conversation.messages) {
        if (message.role === 'system') continue;
        // Tool messages join the assistant turn before them; anything else starts a turn.
        if (message.role === 'tool' && current) current.push(message);
        else turns.push({ source, messages: (current = [message]) });
      }
    }
  }
  return turns;
}

/**
 * Turns `first` .. `first + count - 1` of `turns` cycled endlessly, each message with a fresh id
 * (`turn-<n>-<i>`), fresh call ids, and a timestamp that grows with the turn number, so ids stay
 * unique across cycles and across successive runs, and time runs forward.
 */
export function* cycleTurns(
  turns: readonly SourceTurn[],
  count: number,
  { first = 0, start = Date.UTC(2026, 0, 1) } = {},
): Generator<SourceTurn & { readonly index: number }> {
  for (let index = first; index < first + count; index += 1) {
    const turn = turns[index % turns.length]!;
    const suffix = `~t${index}`;
    const messages = turn.messages.map((message, position): Message => {
      const parts = message.parts.map((part): MessagePart => ('callId' in part ? { ...part, callId: part.callId + suffix } : part));
      return { ...message, id: `turn-${index}-${position}`, parts, timestamp: new Date(start + (index * 100 + position) * 1000).toISOString() };
    });
    yield { index, source: turn.source, messages };
  }
}
