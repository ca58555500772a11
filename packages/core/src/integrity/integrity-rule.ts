/** The rules every provider's output must keep. */
export const INTEGRITY_RULES = {
  'result-shape': 'the result has messages, a source digest and a coveredThrough within the input',
  'unique-ids': 'message ids are unique in the output',
  'roles-intact': 'a kept message keeps its role; inserted messages are system or assistant text only',
  'order-kept': 'kept messages stay in their original chronological order',
  'timestamps-unchanged': 'a kept message keeps its timestamp',
  'tool-pairing': 'every tool result follows its tool call, and no call or result is left orphaned',
  'system-unchanged': 'system messages of the input are kept byte-identical',
  'user-unchanged': 'user messages are kept byte-identical unless declared folded',
  'pinned-unchanged': 'pinned messages are kept byte-identical',
  'not-larger': 'the output has no more tokens than the input',
  'message-shape':
    "the output breaks no rule of the target's message shape (MESSAGE_SHAPE_RULES; `openai` unless the host is told `strict`) more often than the input does",
} as const;

export type IntegrityRule = keyof typeof INTEGRITY_RULES;

export interface IntegrityViolation {
  readonly rule: IntegrityRule;
  readonly detail: string;
}
