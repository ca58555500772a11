import type { Message } from '../messages/message.js';
import { LAZY_DIGESTS } from '../host/build-compaction-result.js';
import { canonicalMessage } from '../digest/canonical-form.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import type { TokenCounting } from '../tokens/token-counting.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import type { IntegrityViolation } from './integrity-rule.js';
import { DEFAULT_MESSAGE_SHAPE, findMessageShapeRegressions, type MessageShapeRuleSet } from './message-shape.js';
import { messagesMemo } from './messages-memo.js';
import { findToolPairingProblem } from './tool-pairing.js';

export interface IntegrityOptions {
  /** The message shape the output must keep (no more often broken than in the input). Default `openai`. */
  readonly shape?: MessageShapeRuleSet;
}

/**
 * Checks a provider's result against the integrity rules and returns every violation found
 * (empty when the output is valid).
 */
export function findIntegrityViolations(
  input: readonly Message[],
  result: CompactionResult,
  tokens: TokenCounting,
  options: IntegrityOptions = {},
): IntegrityViolation[] {
  const violations: IntegrityViolation[] = [];
  // Providers are third-party code: a missing result must be a rule violation, not a TypeError.
  if (result == null || typeof result !== 'object') {
    return [{ rule: 'result-shape', detail: `compress returned ${result === null ? 'null' : typeof result}, not a CompactionResult` }];
  }
  const output: readonly Message[] = result.messages;
  if (!Array.isArray(result.messages) || (!LAZY_DIGESTS.has(result) && typeof result.sourceDigest !== 'string')) {
    return [{ rule: 'result-shape', detail: 'messages must be an array and sourceDigest a string' }];
  }
  const malformed = output.findIndex(
    (message) => message == null || typeof message.id !== 'string' || typeof message.role !== 'string' || !Array.isArray(message.parts),
  );
  if (malformed !== -1) return [{ rule: 'result-shape', detail: `output message ${malformed} is not a message (id, role and parts)` }];
  if (!Number.isInteger(result.coveredThrough) || result.coveredThrough < -1 || result.coveredThrough >= input.length) {
    violations.push({ rule: 'result-shape', detail: `coveredThrough ${result.coveredThrough} is outside -1..${input.length - 1}` });
  }

  const inputIndex = lastIndexById(input);
  const folded = new Set((result.folded ?? []).map((entry) => entry.messageId));

  const seen = new Set<string>();
  let lastIndex = -1;
  for (let position = 0; position < output.length; position += 1) {
    const message = output[position]!;
    if (seen.has(message.id)) violations.push({ rule: 'unique-ids', detail: `id "${message.id}" appears twice` });
    seen.add(message.id);
    const index = inputIndex.get(message.id);
    if (index === undefined) {
      const toolData = message.parts.some((part) => part.type === 'tool-call' || part.type === 'tool-result');
      if ((message.role !== 'system' && message.role !== 'assistant') || toolData) {
        violations.push({
          rule: 'roles-intact',
          detail: `inserted message ${position} ("${message.id}") is ${message.role}${toolData ? ' with tool data' : ''}`,
        });
      }
      continue;
    }
    const original = input[index]!;
    if (original.role !== message.role) {
      violations.push({ rule: 'roles-intact', detail: `message "${message.id}" changed role ${original.role} -> ${message.role}` });
    }
    if (index <= lastIndex) violations.push({ rule: 'order-kept', detail: `message "${message.id}" (input ${index}) comes after input ${lastIndex}` });
    lastIndex = Math.max(lastIndex, index);
    if (original.timestamp !== message.timestamp) {
      violations.push({ rule: 'timestamps-unchanged', detail: `message "${message.id}" timestamp ${original.timestamp} -> ${message.timestamp}` });
    }
  }

  const outputIndex = lastIndexById(output);
  for (const original of input) {
    // Only pinned, system and user messages must stay byte-identical; comparing the canonical
    // forms of every edited assistant or tool message would cost as much as the edits are long.
    if (!original.pinned && original.role !== 'system' && original.role !== 'user') continue;
    const at = outputIndex.get(original.id);
    const kept = at === undefined ? undefined : output[at];
    const identical = kept !== undefined && (kept === original || canonicalMessage(kept) === canonicalMessage(original));
    if (original.pinned && !identical) {
      violations.push({ rule: 'pinned-unchanged', detail: `pinned message "${original.id}" was ${kept ? 'edited' : 'removed'}` });
    } else if (original.role === 'system' && !identical) {
      violations.push({ rule: 'system-unchanged', detail: `system message "${original.id}" was ${kept ? 'edited' : 'removed'}` });
    } else if (original.role === 'user' && !identical && !(kept === undefined && folded.has(original.id))) {
      violations.push({ rule: 'user-unchanged', detail: `user message "${original.id}" was ${kept ? 'edited' : 'removed without being declared folded'}` });
    }
  }

  const pairing = findToolPairingProblem(input, output);
  if (pairing) violations.push({ rule: 'tool-pairing', detail: pairing });

  const shape = options.shape ?? DEFAULT_MESSAGE_SHAPE;
  for (const regression of findMessageShapeRegressions(input, output, shape)) {
    // A lost or orphaned result is already named by tool-pairing.
    if (regression.rule === 'tool-results-follow-call' && pairing) continue;
    violations.push({
      rule: 'message-shape',
      detail:
        `${shape} rule "${regression.rule}" is broken ${regression.outputCount} time(s) in the output, ${regression.inputCount} in the input; ` +
        `first: ${regression.violations[0]!.detail}`,
    });
  }

  const before = tokens.countMessages(input);
  const after = tokens.countMessages(output);
  if (after > before) violations.push({ rule: 'not-larger', detail: `output has ${after} tokens, input ${before}` });
  return violations;
}

/** Where each id is in an array (its last place), remembered while the array holds the same messages. */
const lastIndexById = messagesMemo((messages): ReadonlyMap<string, number> => {
  const index = new Map<string, number>();
  messages.forEach((message, position) => index.set(message.id, position));
  return index;
});

/** Throws `InvalidProviderOutputError` naming the provider and the first rule broken. */
export function validateCompaction(
  provider: string,
  input: readonly Message[],
  result: CompactionResult,
  tokens: TokenCounting,
  options: IntegrityOptions = {},
): void {
  const [first] = findIntegrityViolations(input, result, tokens, options);
  if (first) throw new InvalidProviderOutputError({ provider, rule: first.rule, detail: first.detail });
}
