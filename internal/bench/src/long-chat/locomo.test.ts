import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageText } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { loadLocomoFolder, readLocomoChat, splitEvidence } from './locomo.js';
import { SPEAKER_A, SPEAKER_B, syntheticDocument, turnText, type SyntheticTurn } from './test-support/synthetic-chat.js';

describe('readLocomoChat', () => {
  it('makes one system message, then one message per turn: speaker_a as user, speaker_b as assistant, ids from dia_id', () => {
    const chat = readLocomoChat(syntheticDocument(2, 3), 'synthetic');
    expect(chat.messages.map((message) => message.id)).toEqual(['system', 'D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2', 'D2:3']);
    expect(chat.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'user', 'assistant', 'user']);
    expect(messageText(chat.messages[0]!)).toBe(`A long chat between ${SPEAKER_A} and ${SPEAKER_B}.`);
    expect(chat.sessions).toBe(2);
    expect(chat.turns.get('D2:2')).toBe(turnText(2, 2, SPEAKER_B));
  });

  it('puts the session date line before the first turn of each session only', () => {
    const chat = readLocomoChat(syntheticDocument(2, 2), 'synthetic');
    const text = (id: string) => messageText(chat.messages.find((message) => message.id === id)!);
    expect(text('D1:1')).toBe(`(session 1, 1:00 pm on 1 March, 2024) ${turnText(1, 1, SPEAKER_A)}`);
    expect(text('D1:2')).toBe(turnText(1, 2, SPEAKER_B));
    expect(text('D2:1')).toBe(`(session 2, 2:00 pm on 2 March, 2024) ${turnText(2, 1, SPEAKER_A)}`);
  });

  it('writes `(session N) ` when a session has no date, and orders sessions by number (10 after 2)', () => {
    const document = syntheticDocument(10, 1);
    delete document.session_3_date_time;
    const chat = readLocomoChat(document, 'synthetic');
    expect(chat.messages.slice(1).map((message) => message.id)).toEqual(Array.from({ length: 10 }, (_, index) => `D${index + 1}:1`));
    expect(messageText(chat.messages[3]!)).toBe(`(session 3) ${turnText(3, 1, SPEAKER_A)}`);
  });

  it('appends the photo caption, and nothing for an empty one', () => {
    const document = syntheticDocument(1, 3);
    const turns = document.session_1 as SyntheticTurn[];
    turns[1]!.blip_caption = 'a photo of a red kite';
    turns[1]!.img_url = ['https://example.invalid/kite.jpg'];
    turns[2]!.blip_caption = '  ';
    const chat = readLocomoChat(document, 'synthetic');
    expect(messageText(chat.messages[2]!)).toBe(`${turnText(1, 2, SPEAKER_B)} [shares a photo: a photo of a red kite]`);
    expect(messageText(chat.messages[3]!)).toBe(turnText(1, 3, SPEAKER_A));
    // The turn's own text (what evidence is searched for) has no caption.
    expect(chat.turns.get('D1:2')).toBe(turnText(1, 2, SPEAKER_B));
  });

  it('keeps two turns in a row by one speaker as two messages and lists the second', () => {
    // Each synthetic session starts with A; a 3-turn session ends with A too, so D2:1 follows A's D1:3.
    const chat = readLocomoChat(syntheticDocument(2, 3), 'synthetic');
    expect(chat.messages.filter((message) => message.role === 'user').map((message) => message.id)).toEqual(['D1:1', 'D1:3', 'D2:1', 'D2:3']);
    expect(chat.sameSpeakerRuns).toEqual(['D2:1']);
    expect(readLocomoChat(syntheticDocument(2, 2), 'synthetic').sameSpeakerRuns).toEqual([]);
  });

  it('reads the release form {conversation, qa} as the flattened one', () => {
    const flat = syntheticDocument(2, 2, [{ question: 'q', answer: 7, evidence: ['D1:2'], category: 1 }]);
    const { qa, ...conversation } = flat;
    const nested = readLocomoChat({ conversation, qa }, 'nested');
    const read = readLocomoChat(flat, 'flat');
    expect(nested.messages).toEqual(read.messages);
    expect(nested.questions).toEqual(read.questions);
    expect(read.questions[0]!.answer).toBe('7');
  });

  it('splits evidence entries holding several ids and reports those naming no turn', () => {
    expect(splitEvidence(['D1:1; D2:3', 'D4:1,D4:2', ' D5:5 '])).toEqual(['D1:1', 'D2:3', 'D4:1', 'D4:2', 'D5:5']);
    const chat = readLocomoChat(
      syntheticDocument(2, 2, [
        { question: 'q', answer: 'x', evidence: ['D1:1; D2:2', 'D1:1', 'D9:9'], category: 4 },
        { question: 'adversarial', adversarial_answer: 'y', evidence: [], category: 5 },
      ]),
      'synthetic',
    );
    expect(chat.questions[0]).toMatchObject({ evidence: ['D1:1', 'D2:2'], unresolvedEvidence: ['D9:9'], category: 4 });
    expect(chat.questions[1]!.answer).toBeUndefined();
  });

  it('rejects a turn whose speaker is neither speaker', () => {
    const document = syntheticDocument(1, 2);
    (document.session_1 as SyntheticTurn[])[1]!.speaker = 'Someone else';
    expect(() => readLocomoChat(document, 'synthetic')).toThrow(/neither speaker_a nor speaker_b/);
  });
});

describe('loadLocomoFolder', () => {
  it('reads every *.json in numeric name order and fails in one line on a missing folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'long-chat-'));
    try {
      writeFileSync(join(folder, '10.json'), JSON.stringify(syntheticDocument(1, 2)));
      writeFileSync(join(folder, '9.json'), JSON.stringify(syntheticDocument(2, 2)));
      writeFileSync(join(folder, 'notes.txt'), 'not a sample');
      expect(loadLocomoFolder(folder).map((chat) => [chat.id, chat.sessions])).toEqual([
        ['9', 2],
        ['10', 1],
      ]);
      expect(() => loadLocomoFolder(join(folder, 'missing'))).toThrow(/^no LoCoMo fixtures folder at .*missing$/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
