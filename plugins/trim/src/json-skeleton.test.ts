import { readFileSync } from 'node:fs';
import { createTokenizer, type TokenCounting, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { buildJsonSkeleton, MAXIMUM_SKELETON_TOKENS, parseJsonDocument, SKELETON_SHARE, skeletonTokenBudget } from './json-skeleton.js';
import { buildToolResultPlaceholder } from './tool-result-placeholder.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const samplePath = new URL('../../../fixtures/tau-bench-airline/gpt-4o-airline.sample.json', import.meta.url);
interface TauBenchMessage {
  readonly role: string;
  readonly name?: string;
  readonly content: string | null;
}
const runs = JSON.parse(readFileSync(samplePath, 'utf8')) as { traj: TauBenchMessage[] }[];
/** Every tool output of the sample: JSON documents (users, reservations, flight searches) and a few plain-text replies. */
const outputs = runs.flatMap((run) =>
  run.traj.filter((message) => message.role === 'tool').map((message) => ({ name: message.name ?? '', text: message.content ?? '' })),
);
/** The outputs trim would truncate in its later passes (over 100 tokens). */
const large = outputs.filter((output) => tokens.countText(output.text) > 100);

function outputsOf(name: string): { text: string; value: Record<string, unknown> }[] {
  return large.filter((output) => output.name === name).map((output) => ({ text: output.text, value: JSON.parse(output.text) as Record<string, unknown> }));
}

function skeletonOf(output: string, budget = skeletonTokenBudget(tokens.countText(output), 3)): string | undefined {
  return buildJsonSkeleton(output, { tokenBudget: budget, tokens });
}

describe('buildJsonSkeleton on tau-bench outputs', () => {
  it('covers every kind of large JSON output in the sample', () => {
    const names = new Set(large.filter((output) => parseJsonDocument(output.text) !== undefined).map((output) => output.name));
    expect([...names]).toEqual(expect.arrayContaining(['get_user_details', 'get_reservation_details', 'search_direct_flight', 'search_onestop_flight']));
  });

  it('stays within its budget and well under the original', () => {
    for (const output of large) {
      const size = tokens.countText(output.text);
      const skeleton = skeletonOf(output.text);
      if (parseJsonDocument(output.text) === undefined) {
        expect(skeleton).toBeUndefined();
        continue;
      }
      // `list_all_airports` maps three-letter codes to city names: nothing in it looks like an id, so it keeps head and tail lines.
      if (output.name === 'list_all_airports') continue;
      expect(skeleton, output.text.slice(0, 80)).toBeDefined();
      const skeletonTokens = tokens.countText(skeleton!);
      expect(skeletonTokens).toBeLessThanOrEqual(Math.ceil(size * SKELETON_SHARE));
      expect(skeletonTokens).toBeLessThanOrEqual(MAXIMUM_SKELETON_TOKENS);
    }
  });

  it('keeps the reservation id, user id and payment ids and amounts of a reservation', () => {
    const reservations = outputsOf('get_reservation_details');
    expect(reservations.length).toBeGreaterThan(5);
    for (const { text, value } of reservations) {
      const skeleton = skeletonOf(text)!;
      expect(skeleton).toContain(`reservation_id: ${String(value['reservation_id'])}`);
      expect(skeleton).toContain(`user_id: ${String(value['user_id'])}`);
      const payments = value['payment_history'] as { payment_id: string; amount: number }[];
      expect(skeleton).toContain(`payment_id: ${payments[0]!.payment_id}`);
      // Every payment with its amount once the budget allows for them (a quarter of a short reservation may not).
      const generous = skeletonOf(text, 200)!;
      for (const payment of payments) expect(generous).toContain(`{payment_id: ${payment.payment_id}, amount: ${payment.amount}}`);
    }
  });

  it('keeps every reservation id of a user, and the payment method ids with their balances', () => {
    for (const { text, value } of outputsOf('get_user_details')) {
      const reservations = value['reservations'] as string[];
      const skeleton = skeletonOf(text, 200)!;
      expect(skeleton).toContain(`reservations: [${reservations.join(', ')}]`);
      for (const [id, method] of Object.entries(value['payment_methods'] as Record<string, { amount?: number }>)) {
        expect(skeleton).toContain(method.amount === undefined ? id : `${id}: {amount: ${method.amount}}`);
      }
      // Names and addresses are what the skeleton leaves out.
      expect(skeleton).not.toContain('address');
      // At the default budget the ids come before the details.
      const tight = skeletonOf(text)!;
      expect(tight).toMatch(/reservations: \[/);
      expect(tight).not.toContain('saved_passengers');
    }
  });

  it('shows the length of a long flight list and its first flight in full form', () => {
    const [search] = outputsOf('search_onestop_flight').sort((a, b) => b.text.length - a.text.length);
    const pairs = search!.value as unknown as { flight_number: string; origin: string; destination: string; prices: Record<string, number> }[][];
    const skeleton = skeletonOf(search!.text, 60)!;
    expect(skeleton.startsWith(`[${pairs.length} items: [`)).toBe(true);
    const first = pairs[0]![0]!;
    expect(skeleton).toContain(`{flight_number: ${first.flight_number}`);
    expect(skeleton).toContain(
      `prices: {basic_economy: ${first.prices['basic_economy']}, economy: ${first.prices['economy']}, business: ${first.prices['business']}}`,
    );
    expect(tokens.countText(skeleton)).toBeLessThanOrEqual(60);
  });

  it('is deterministic', () => {
    for (const output of large.slice(0, 20)) expect(skeletonOf(output.text)).toBe(skeletonOf(output.text));
  });
});

describe('buildJsonSkeleton on what is not a JSON document', () => {
  const [reservation] = outputsOf('get_reservation_details');

  it('returns nothing for a cut or invalid document, plain text or a bare scalar', () => {
    const text = reservation!.text;
    expect(skeletonOf(text.slice(0, Math.floor(text.length / 2)), 100)).toBeUndefined();
    expect(skeletonOf(`${text}}`, 100)).toBeUndefined();
    expect(skeletonOf('Error: reservation not found', 100)).toBeUndefined();
    expect(skeletonOf('"ABC123"', 100)).toBeUndefined();
    expect(skeletonOf('12345', 100)).toBeUndefined();
  });

  it('returns nothing without a budget, or when nothing in it is an id or an amount', () => {
    expect(skeletonOf(reservation!.text, 0)).toBeUndefined();
    expect(skeletonOf(JSON.stringify({ note: 'a long remark about the weather', other: 'nothing to keep' }), 100)).toBeUndefined();
  });

  it('has no budget when the placeholder has no preview', () => {
    expect(skeletonTokenBudget(400, 0)).toBe(0);
    expect(skeletonTokenBudget(400, 1)).toBe(Math.ceil(400 * SKELETON_SHARE));
    expect(skeletonTokenBudget(1_000_000, 3)).toBe(MAXIMUM_SKELETON_TOKENS);
  });
});

describe('the placeholder of a JSON output', () => {
  const [user] = outputsOf('get_user_details');
  const stored = { sha256: 'a'.repeat(64), path: '.ollm/removed/aaaa.txt' };

  function placeholder(output: string): string {
    return buildToolResultPlaceholder({
      output,
      outputTokens: tokens.countText(output),
      toolName: 'get_user_details',
      call: undefined,
      stored,
      previewLines: 1,
      previewLineCharacters: 160,
      tokens,
    }).text;
  }

  it('shows the skeleton instead of head and tail lines', () => {
    const text = placeholder(user!.text);
    expect(text).toContain('JSON skeleton');
    expect(text).not.toContain('First lines:');
    for (const id of user!.value['reservations'] as string[]) expect(text).toContain(id);
  });

  it('falls back to head and tail lines when the output is not valid JSON', () => {
    const cut = user!.text.slice(0, user!.text.length - 40);
    const text = placeholder(cut);
    expect(text).not.toContain('JSON skeleton');
    expect(text).toContain('First lines:');
  });
});
