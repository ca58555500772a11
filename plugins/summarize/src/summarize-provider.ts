import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  type RemovedContent,
  saveRemovedContent,
  sha256Hex,
  toolTurnGroups,
  v1Arguments,
} from '@ollm/core';
import { parseResume } from './parse-resume.js';
import { readContextFiles, type ContextFile } from './read-context-files.js';
import { resolveSummarizeOptions, type SummarizeOptions } from './summarize-options.js';
import { writeResume } from './write-resume.js';

export const SUMMARIZE_PROVIDER_NAME = 'summarize';
export const RESUME_FOLD_REASON = 'resume-and-restart: the conversation restarts from the RESUME';

/**
 * gptme's `/compact summarize`: the model writes a RESUME (Summary, Technical Context, Current
 * State, Context Files) and the context restarts from it: the system prompt(s), the RESUME as an
 * assistant message, and the files it names (each capped). Every user message is declared folded.
 * Pinned messages (with their tool calls / results) stay.
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
  const dropped = messages.map((_, position) => position).filter((position) => !keep.has(position));
  let usage = { modelInputTokens: 0, modelOutputTokens: 0, modelCalls: 0 };
  const finish = (output: readonly Message[], extra: { removed?: RemovedContent[]; limitations: string[]; folded?: FoldedMessage[] }) =>
    buildCompactionResult({ input: messages, output, tokens, startedAt, ...extra, modelStats: usage });
  if (!messages.some((message, position) => !keep.has(position) && message.role !== 'system')) {
    return finish(messages, { limitations: ['summarize: nothing to summarise: the conversation is only system and pinned messages'] });
  }

  const resume = await writeResume(messages, {
    model,
    tokens,
    modelContextTokens: await modelWindow(model, {
      configured: options.modelContextTokens,
      logger: context.logger,
      abortSignal: context.abortSignal,
      providerName: SUMMARIZE_PROVIDER_NAME,
    }),
    resumeMaxTokens: options.resumeMaxTokens,
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
  const resumeMessage: Message = {
    id: createMessageId('resume'),
    role: 'assistant',
    parts: [{ type: 'text', text: `[ollm resume${resumePath ? ` · saved to ${resumePath}` : ''}]\n${resume.text}` }],
  };
  // Files are dropped from the end until the new context is smaller than the old one.
  let files = read.files.map(fileMessage);
  const assemble = () => {
    const inserted = [resumeMessage, ...files];
    const output: Message[] = [];
    messages.forEach((message, position) => {
      if (position === dropped[0]) output.push(...inserted);
      if (keep.has(position)) output.push(message);
    });
    return output;
  };
  const before = tokens.countMessages(messages);
  let output = assemble();
  while (files.length > 0 && tokens.countMessages(output) >= before) {
    limitations.push(`summarize: context file ${files.at(-1)!.metadata!['path']} left out: the new context would not be smaller than the old one`);
    files = files.slice(0, -1);
    output = assemble();
  }
  if (tokens.countMessages(output) >= before) {
    return finish(messages, {
      limitations: ['summarize: the RESUME was not smaller than the conversation; it was discarded and the conversation is unchanged'],
    });
  }
  if (resumePath) saveResume(resumePath, resume.text);

  const removed = dropped.map((position) => {
    const message = messages[position]!;
    return saveRemoved(config.logdir, message, message.role === 'user' ? 'user-message' : 'message', tokens.countMessage(message));
  });
  const folded = dropped
    .filter((position) => messages[position]!.role === 'user')
    .map((position) => ({ messageId: messages[position]!.id, reason: RESUME_FOLD_REASON }));
  limitations.unshift(
    `summarize: ${dropped.length} messages replaced by a RESUME (${tokens.countMessage(resumeMessage)} tokens${resume.chunks > 1 ? `, written from ${resume.chunks} parts` : ''}) and ${files.length} context file(s); ${folded.length} user message(s) folded`,
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

function saveResume(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${text}\n`, 'utf8');
}

function saveRemoved(logdir: string | undefined, message: Message, kind: string, originalTokens: number): RemovedContent {
  const content = JSON.stringify(message);
  if (logdir === undefined) return { messageId: message.id, kind, sha256: sha256Hex(content), originalTokens };
  const saved = saveRemovedContent(logdir, content);
  return { messageId: message.id, kind, sha256: saved.sha256, originalTokens, path: saved.path };
}
