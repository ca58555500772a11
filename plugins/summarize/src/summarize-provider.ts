import { join } from 'node:path';
import {
  buildCompactionResult,
  type CompactionResult,
  type CompressionConfig,
  type ContextProviderV2,
  createMessageId,
  type FoldedMessage,
  type Message,
  modelWindow,
  NoModelError,
  outputFromResult,
  type ProviderContext,
  redactSecrets,
  type RemovedContent,
  saveRemovedContent,
  sha256Hex,
  tokenPrefix,
  toolTurnGroups,
  turnOf,
  v1Arguments,
  writeFileAtomic,
} from '@ollm/core';
import { parseResume } from './parse-resume.js';
import { readContextFiles, type ContextFile } from './read-context-files.js';
import { DEFAULT_RESUME_MAX_TOKENS, resolveSummarizeOptions, type SummarizeOptions } from './summarize-options.js';
import { writeResume } from './write-resume.js';

export const SUMMARIZE_PROVIDER_NAME = 'summarize';
export const RESUME_FOLD_REASON = 'resume-and-restart: the conversation restarts from the RESUME';
/** Share of what the kept messages leave of the limit that the RESUME asks for; the rest is for context files. */
const RESUME_SHARE = 0.75;
const MINIMUM_RESUME_TOKENS = 64;
/** The RESUME message's header line and message overhead. */
const RESUME_MESSAGE_OVERHEAD = 32;
/** A context file's header line and fence. */
const FILE_MESSAGE_OVERHEAD = 40;
/** A file cut to fewer tokens than this is left out instead. */
const MINIMUM_FILE_TOKENS = 64;

/**
 * gptme's `/compact summarize`: the model writes a RESUME (Summary, Technical Context, Current
 * State, Context Files) and the context restarts from it: the system prompt(s), the first user
 * message (the task) and the latest one verbatim, the RESUME as an assistant message and the files
 * it names (each capped), with a one-line note between two user messages that would follow each
 * other — a shape every model API accepts (core's strict message shape). The RESUME's size follows
 * the limit. The other user messages are declared folded. Pinned messages (with their tool calls /
 * results) stay.
 *
 * Failures: transport faults surface as the model client's typed errors; an empty RESUME, or a
 * result not smaller than its input, returns the input unchanged with a `limitations` entry.
 */
export function createSummarizeProvider(options: SummarizeOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    usesModel: true,
    name: SUMMARIZE_PROVIDER_NAME,
    description: 'Resume-and-restart: the model writes a RESUME and the context restarts from it with the files it names',
    async compress(call) {
      const { config, context } = v1Arguments(call);
      return outputFromResult(await compressMessages(call.messages, config, context, options));
    },
  };
}

async function compressMessages(
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  factoryOptions: SummarizeOptions,
): Promise<CompactionResult> {
  const startedAt = performance.now();
  const { model, tokens } = context;
  if (!model) {
    throw new NoModelError({
      needer: SUMMARIZE_PROVIDER_NAME,
      message: 'summarize needs a model to write the RESUME: pass context.model (createOllamaModel / createOpenAIModel), or use trim',
    });
  }
  context.abortSignal?.throwIfAborted();
  const options = resolveSummarizeOptions(factoryOptions, config);
  const keep = keptPositions(messages);
  let usage = { modelInputTokens: 0, modelOutputTokens: 0, modelCalls: 0 };
  const finish = (output: readonly Message[], extra: { removed?: RemovedContent[]; limitations: string[]; folded?: FoldedMessage[] }) =>
    buildCompactionResult({ input: messages, output, tokens, startedAt, ...extra, modelStats: usage });
  if (!messages.some((message, position) => !keep.has(position) && message.role !== 'system')) {
    return finish(messages, { limitations: ['summarize: nothing to summarise: the conversation is only system and pinned messages'] });
  }
  // The task and the latest request stay verbatim: the restart begins with a user turn, as the
  // Anthropic API and strict chat templates need, and the model sees what it was last asked.
  const plainUser = (message: Message) => turnOf(message) === 'user' && !message.parts.some((part) => part.type === 'tool-result');
  const first = messages.findIndex(plainUser);
  const latest = messages.findLastIndex(plainUser);
  if (first !== -1) keep.add(first);
  if (latest !== -1) keep.add(latest);
  const dropped = messages.map((_, position) => position).filter((position) => !keep.has(position));
  if (dropped.every((position) => messages[position]!.role === 'system')) {
    return finish(messages, {
      limitations: ['summarize: nothing to summarise: only the first and the latest user messages are left besides system and pinned ones'],
    });
  }
  const plan = planRestart(messages, keep);

  // The RESUME follows the limit: three quarters of what the kept messages leave of it, the rest for files.
  const keptTokens = tokens.countMessages(plan.map((entry) => (entry.kind === 'kept' ? messages[entry.position]! : noteMessage('', 'below'))));
  const room = config.limit === undefined ? undefined : config.limit - keptTokens - RESUME_MESSAGE_OVERHEAD;
  const wanted = room === undefined ? (options.resumeMaxTokens ?? DEFAULT_RESUME_MAX_TOKENS) : Math.max(MINIMUM_RESUME_TOKENS, Math.floor(room * RESUME_SHARE));
  const resumeTokens = options.resumeMaxTokens === undefined ? wanted : Math.min(wanted, options.resumeMaxTokens);
  const resume = await writeResume(messages, {
    model,
    tokens,
    modelContextTokens: await modelWindow(model, {
      configured: options.modelContextTokens,
      logger: context.logger,
      abortSignal: context.abortSignal,
      providerName: SUMMARIZE_PROVIDER_NAME,
    }),
    resumeMaxTokens: resumeTokens,
    maxToolResultTokens: config.maxToolResultTokens,
    temperature: options.temperature,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  usage = { modelInputTokens: resume.modelInputTokens, modelOutputTokens: resume.modelOutputTokens, modelCalls: resume.modelCalls };
  if (resume.text === '')
    return finish(messages, { limitations: ['summarize: the model returned an empty RESUME; it was discarded and the conversation is unchanged'] });

  const parsed = parseResume(resume.text);
  const read = readContextFiles(parsed.contextFiles, options.workspace, options.fileMaxTokens, tokens);
  const limitations: string[] = [];
  // The path is named now because the RESUME message cites it, but the file is written only once
  // the result is kept: a discarded RESUME must leave nothing behind in logdir.
  const resumePath = config.logdir ? resumePathIn(config.logdir) : undefined;
  const resumeText = resume.parts === '' ? resume.text : `${resume.text}\n\n## Conversation Parts\n${resume.parts}`;
  const resumeMessage: Message = {
    id: createMessageId('resume'),
    role: 'assistant',
    parts: [{ type: 'text', text: `[ollm resume${resumePath ? ` · saved to ${resumePath}` : ''}]\n${resumeText}` }],
  };
  const before = tokens.countMessages(messages);
  const assemble = (files: readonly Message[]) => assembleRestart(messages, plan, [resumeMessage, ...files]);
  // Files fill what the RESUME left of the limit: the last one that does not fit is cut to the
  // room left, the ones after it left out; and never so many that the context would not shrink.
  const files: Message[] = [];
  for (const file of read.files) {
    const candidate = fileMessage(file);
    const size = tokens.countMessages(assemble([...files, candidate]));
    if (size < before && (config.limit === undefined || size <= config.limit)) {
      files.push(candidate);
      continue;
    }
    const left = Math.min(config.limit ?? Number.POSITIVE_INFINITY, before - 1) - tokens.countMessages(assemble(files)) - FILE_MESSAGE_OVERHEAD;
    if (left >= MINIMUM_FILE_TOKENS) {
      const cut = { ...file, text: tokenPrefix(file.text, left, tokens.tokenizer), cut: true };
      const shorter = fileMessage(cut);
      if (tokens.countMessages(assemble([...files, shorter])) <= Math.min(config.limit ?? Number.POSITIVE_INFINITY, before - 1)) {
        files.push(shorter);
        limitations.push(`summarize: context file ${file.path} cut to the ${left} tokens the limit left`);
        continue;
      }
    }
    limitations.push(`summarize: context file ${file.path} left out: no room left under the limit`);
  }
  const output = assemble(files);
  if (tokens.countMessages(output) >= before) {
    return finish(messages, {
      limitations: ['summarize: the RESUME was not smaller than the conversation; it was discarded and the conversation is unchanged'],
    });
  }
  if (resumePath) saveResume(resumePath, resumeText);

  const removed = dropped.map((position) => {
    const message = messages[position]!;
    return saveRemoved(config.logdir, message, message.role === 'user' ? 'user-message' : 'message', tokens.countMessage(message));
  });
  const folded = dropped
    .filter((position) => messages[position]!.role === 'user')
    .map((position) => ({ messageId: messages[position]!.id, reason: RESUME_FOLD_REASON }));
  const userKept = [first, latest].filter((position, index, list) => position !== -1 && list.indexOf(position) === index).length;
  limitations.unshift(
    `summarize: ${dropped.length} messages replaced by a RESUME (${tokens.countMessage(resumeMessage)} tokens${resume.chunks > 1 ? `, written from ${resume.chunks} parts` : ''}) and ${files.length} context file(s); ${userKept} user message(s) kept (the first and the latest), ${folded.length} folded`,
    resumePath
      ? `summarize: RESUME saved to ${resumePath}`
      : 'summarize: no logdir: the RESUME and the replaced messages are not saved, only their sha256 is recorded',
  );
  if (parsed.missing.length > 0) limitations.push(`summarize: the RESUME lacks section(s): ${parsed.missing.join(', ')}`);
  for (const skipped of read.skipped) limitations.push(`summarize: context file ${skipped.path} not read: ${skipped.reason}`);
  for (const file of read.files)
    if (file.cut) limitations.push(`summarize: context file ${file.path} cut to ${options.fileMaxTokens} of its ${file.tokens} tokens`);
  if (config.limit !== undefined && tokens.countMessages(output) > config.limit) {
    limitations.push(`summarize: still ${tokens.countMessages(output)} tokens, over the limit of ${config.limit}`);
  }
  return finish(output, { removed, limitations, folded });
}

/** One entry of the restarted context: a kept message, the RESUME (with its files) or a note. */
type RestartEntry = { kind: 'kept'; position: number } | { kind: 'resume' } | { kind: 'note'; where: 'above' | 'below' };

/**
 * Where everything goes in the restarted context. Kept messages (system, pinned, the first and the
 * latest user message) stay in order. The RESUME and its files sit where the replaced turns end:
 * right after the last replaced message, so a latest user message still waiting for its reply
 * stays last, and a pinned final message (SWE-agent's exit) stays after the RESUME. A kept user
 * turn that would be followed by another user turn gets a one-line note between them (an
 * assistant message saying where their replies went), so turns alternate.
 */
function planRestart(messages: readonly Message[], keep: ReadonlySet<number>): RestartEntry[] {
  const lastReplaced = messages.findLastIndex((_, position) => !keep.has(position));
  const entries: RestartEntry[] = messages.flatMap((_, position): RestartEntry[] => {
    const entry: RestartEntry[] = keep.has(position) ? [{ kind: 'kept', position }] : [];
    return position === lastReplaced ? [...entry, { kind: 'resume' }] : entry;
  });
  const resumeAt = entries.findIndex((entry) => entry.kind === 'resume');
  const planned: RestartEntry[] = [];
  let previous: 'user' | 'assistant' | undefined;
  for (const [index, entry] of entries.entries()) {
    const turn = entry.kind === 'kept' ? turnOf(messages[entry.position]!) : 'assistant';
    if (turn === 'user' && previous === 'user') planned.push({ kind: 'note', where: index < resumeAt ? 'below' : 'above' });
    if (turn !== 'system') previous = turn;
    planned.push(entry);
  }
  return planned;
}

function assembleRestart(messages: readonly Message[], plan: readonly RestartEntry[], inserted: readonly Message[]): Message[] {
  return plan.flatMap((entry): Message[] => {
    if (entry.kind === 'kept') return [messages[entry.position]!];
    if (entry.kind === 'resume') return [...inserted];
    return [noteMessage(`note-${plan.indexOf(entry)}`, entry.where)];
  });
}

/** What stands between two user turns whose replies are in the RESUME. */
function noteMessage(key: string, where: 'above' | 'below'): Message {
  return {
    id: createMessageId(`resume-${key}`),
    role: 'assistant',
    parts: [{ type: 'text', text: `[ollm resume · the turns that answered this message are summarised in the RESUME ${where}]` }],
  };
}

/** System and pinned messages stay, and with a pinned message every message of its tool group. */
function keptPositions(messages: readonly Message[]): Set<number> {
  const groups = toolTurnGroups(messages);
  const keep = new Set<number>();
  messages.forEach((message, position) => {
    if (message.role === 'system') keep.add(position);
    if (message.pinned) for (const member of groups[position]!) keep.add(member);
  });
  return keep;
}

function fileMessage(file: ContextFile): Message {
  const note = file.cut ? `, cut to its first part of ${file.tokens} tokens` : '';
  return {
    id: createMessageId('context-file'),
    role: 'assistant',
    parts: [{ type: 'text', text: `Context file ${file.path} (read at restart${note}):\n\`\`\`\n${file.text}\n\`\`\`` }],
    metadata: { path: file.path },
  };
}

function resumePathIn(logdir: string): string {
  return join(logdir, `RESUME-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
}

/** The RESUME as a file beside the removed content, through core's redaction: no secret, no URL credentials. */
function saveResume(path: string, text: string): void {
  writeFileAtomic(path, `${redactSecrets(text, [], { urlCredentials: 'keep' })}\n`);
}

function saveRemoved(logdir: string | undefined, message: Message, kind: string, originalTokens: number): RemovedContent {
  const content = JSON.stringify(message);
  if (logdir === undefined) return { messageId: message.id, kind, sha256: sha256Hex(content), originalTokens };
  const saved = saveRemovedContent(logdir, content);
  return { messageId: message.id, kind, sha256: saved.sha256, originalTokens, path: saved.path };
}
