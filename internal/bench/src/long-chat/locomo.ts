import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { textPart, type Message } from '@ollm/core';

/** One turn of a LoCoMo session, as the file holds it (only the fields the reader uses). */
export interface LocomoTurn {
  readonly speaker: string;
  /** `D<session>:<turn>`. */
  readonly dia_id: string;
  readonly text: string;
  readonly blip_caption?: string;
}

/** One LoCoMo question (categories 1-4 have `answer`; category 5, adversarial, has `adversarial_answer`). */
export interface LocomoQuestion {
  readonly question: string;
  readonly answer?: string | number;
  readonly adversarial_answer?: string;
  /** Turn ids, normally one per entry; a few entries hold several (`D8:6; D9:17`). */
  readonly evidence: readonly string[];
  readonly category: number;
}

/** A question as the measure uses it. */
export interface ChatQuestion {
  readonly question: string;
  /** `String(answer)`; undefined when the question has none (category 5). */
  readonly answer: string | undefined;
  readonly category: number;
  /** Evidence turn ids found in the chat, in the order given, duplicates removed. */
  readonly evidence: readonly string[];
  /** Evidence entries naming no turn of the chat (kept to be reported). */
  readonly unresolvedEvidence: readonly string[];
}

export interface LongChat {
  /** The file name without `.json` (`26`). */
  readonly id: string;
  readonly speakerA: string;
  readonly speakerB: string;
  readonly sessions: number;
  readonly messages: readonly Message[];
  /** Each turn's own text (without the session date prefix or photo caption), by dia_id. */
  readonly turns: ReadonlyMap<string, string>;
  readonly questions: readonly ChatQuestion[];
  /** Places where one speaker has two turns in a row (kept as two messages): `D3:7` for the second. */
  readonly sameSpeakerRuns: readonly string[];
}

export const SYSTEM_MESSAGE_ID = 'system';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `D8:6; D9:17` -> `D8:6`, `D9:17`: evidence entries split on `;`, `,` and whitespace. */
export function splitEvidence(entries: readonly unknown[]): string[] {
  return entries.flatMap((entry) =>
    String(entry)
      .split(/[;,\s]+/)
      .filter((id) => id !== ''),
  );
}

/** `(session 3, 1:14 pm on 25 May 2023) `, or `(session 3) ` when the file has no date for it. */
export function sessionPrefix(session: number, dateTime: string | undefined): string {
  return dateTime !== undefined && dateTime.trim() !== '' ? `(session ${session}, ${dateTime.trim()}) ` : `(session ${session}) `;
}

export function turnMessageText(turn: LocomoTurn, prefix: string): string {
  const caption = typeof turn.blip_caption === 'string' && turn.blip_caption.trim() !== '' ? ` [shares a photo: ${turn.blip_caption.trim()}]` : '';
  return `${prefix}${turn.text}${caption}`;
}

/**
 * A LoCoMo conversation as ollm messages: one system message (`A long chat between A and B.`),
 * then one message per turn, in session order — speaker_a as `user`, speaker_b as `assistant` —
 * with the turn's dia_id as its id. The first turn of each session starts with the session's
 * date line. Two turns in a row by one speaker stay two messages (listed in `sameSpeakerRuns`).
 *
 * Accepts the file as LoCoMo's release holds one sample (`{conversation: {...}, qa: [...]}`) or
 * flattened (`{speaker_a, speaker_b, session_N, ..., qa}`, as ../shared/fixtures/locomo-sample has it).
 */
export function readLocomoChat(document: unknown, id: string): LongChat {
  if (!isRecord(document)) throw new Error(`${id}: not a LoCoMo sample (expected a JSON object)`);
  const conversation = isRecord(document.conversation) ? document.conversation : document;
  const speakerA = conversation.speaker_a;
  const speakerB = conversation.speaker_b;
  if (typeof speakerA !== 'string' || typeof speakerB !== 'string') throw new Error(`${id}: no speaker_a / speaker_b`);
  const sessionNumbers = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null && Array.isArray(conversation[match[0]]))
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
  if (sessionNumbers.length === 0) throw new Error(`${id}: no session_N turns`);

  const messages: Message[] = [{ id: SYSTEM_MESSAGE_ID, role: 'system', parts: [textPart(`A long chat between ${speakerA} and ${speakerB}.`)] }];
  const turns = new Map<string, string>();
  const sameSpeakerRuns: string[] = [];
  for (const session of sessionNumbers) {
    const dateTime = conversation[`session_${session}_date_time`];
    const prefix = sessionPrefix(session, typeof dateTime === 'string' ? dateTime : undefined);
    const sessionTurns = conversation[`session_${session}`] as unknown[];
    sessionTurns.forEach((value, index) => {
      if (!isRecord(value) || typeof value.dia_id !== 'string' || typeof value.text !== 'string' || typeof value.speaker !== 'string') {
        throw new Error(`${id}: session_${session}[${index}] is not a turn {speaker, dia_id, text}`);
      }
      const turn = value as unknown as LocomoTurn;
      if (turns.has(turn.dia_id)) throw new Error(`${id}: dia_id ${turn.dia_id} appears twice`);
      const role = turn.speaker === speakerA ? 'user' : turn.speaker === speakerB ? 'assistant' : undefined;
      if (role === undefined) throw new Error(`${id}: ${turn.dia_id} has speaker "${turn.speaker}", neither speaker_a nor speaker_b`);
      const previous = messages[messages.length - 1]!;
      if (previous.role === role) sameSpeakerRuns.push(turn.dia_id);
      messages.push({
        id: turn.dia_id,
        role,
        parts: [textPart(turnMessageText(turn, index === 0 ? prefix : ''))],
        metadata: { speaker: turn.speaker, session },
      });
      turns.set(turn.dia_id, turn.text);
    });
  }

  const qa = Array.isArray(document.qa) ? document.qa : Array.isArray(conversation.qa) ? conversation.qa : [];
  const questions: ChatQuestion[] = qa.filter(isRecord).map((entry) => {
    const ids = splitEvidence(Array.isArray(entry.evidence) ? entry.evidence : []);
    const evidence = [...new Set(ids.filter((turn) => turns.has(turn)))];
    return {
      question: String(entry.question),
      answer: entry.answer === undefined || entry.answer === null ? undefined : String(entry.answer as string | number),
      category: Number(entry.category),
      evidence,
      unresolvedEvidence: ids.filter((turn) => !turns.has(turn)),
    };
  });
  return { id, speakerA, speakerB, sessions: sessionNumbers.length, messages, turns, questions, sameSpeakerRuns };
}

/** Every `*.json` of `folder`, read as a LoCoMo sample, in name order. Throws a one-line error when the folder is missing. */
export function loadLocomoFolder(folder: string): LongChat[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`no LoCoMo fixtures folder at ${folder}`);
  const names = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (names.length === 0) throw new Error(`no LoCoMo samples (*.json) in ${folder}`);
  return names.map((name) => readLocomoChat(JSON.parse(readFileSync(join(folder, name), 'utf8')) as unknown, basename(name, '.json')));
}
