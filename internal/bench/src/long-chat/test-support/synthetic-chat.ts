/**
 * Synthetic LoCoMo-shaped documents for the long-chat tests: made-up speakers and generated text
 * (no LoCoMo content). Turn `D<s>:<t>` says `<speaker> note <s>.<t>: ...` so every turn text is unique.
 */

export const SPEAKER_A = 'Avery';
export const SPEAKER_B = 'Blake';

const WORDS = ['lantern', 'orchard', 'harbor', 'violin', 'meadow', 'granite', 'comet', 'saffron', 'kettle', 'willow', 'pebble', 'atlas'];

export interface SyntheticTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
  img_url?: string[];
}

export interface SyntheticQuestion {
  question: string;
  answer?: string | number;
  adversarial_answer?: string;
  evidence: string[];
  category: number;
}

export type SyntheticDocument = Record<string, unknown> & { qa: SyntheticQuestion[] };

export function turnText(session: number, turn: number, speaker: string): string {
  const words = Array.from({ length: 6 + ((session * 7 + turn * 3) % 9) }, (_, index) => WORDS[(session * 5 + turn * 11 + index) % WORDS.length]);
  return `${speaker} note ${session}.${turn}: ${words.join(' ')}.`;
}

/**
 * `sessions` sessions of `turnsPerSession` turns alternating A, B (each session starting with A),
 * dated `<session>:00 pm on <session> March, 2024`, in the flattened form (speakers, sessions and qa at the top).
 */
export function syntheticDocument(sessions: number, turnsPerSession: number, qa: SyntheticQuestion[] = []): SyntheticDocument {
  const document: Record<string, unknown> = { speaker_a: SPEAKER_A, speaker_b: SPEAKER_B };
  for (let session = 1; session <= sessions; session += 1) {
    document[`session_${session}_date_time`] = `${session}:00 pm on ${session} March, 2024`;
    const turns: SyntheticTurn[] = [];
    for (let turn = 1; turn <= turnsPerSession; turn += 1) {
      const speaker = turn % 2 === 1 ? SPEAKER_A : SPEAKER_B;
      turns.push({ speaker, dia_id: `D${session}:${turn}`, text: turnText(session, turn, speaker) });
    }
    document[`session_${session}`] = turns;
  }
  return { ...document, qa };
}
