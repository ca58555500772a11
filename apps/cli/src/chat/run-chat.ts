import { TokenCounter, createTokenizer, encodingForModel, parsePipeline, providerUsesModel, type Logger, type Pipeline } from '@ollm/core';
import { ContextManager, SessionHistory, SnapshotStore, acquireSessionLock, parseModelSize } from '@ollm/runtime';
import type { ProviderRegistry } from '@ollm/runtime';
import type { CliIo } from '../cli-io.js';
import { oneLine } from '../exit-codes.js';
import { colorsFor } from '../output/colors.js';
import { formatInteger } from '../output/format-number.js';
import { loadProviders } from '../plugins.js';
import { unusedProviderOptions } from '../provider-options.js';
import { activeContextPath, readActiveContext } from '../sessions/active-context-file.js';
import { newSessionId } from '../sessions/new-session-id.js';
import { tidyHomeAtStart } from '../sessions/tidy-home.js';
import { NoReplyError } from './no-reply-error.js';
import { resolveChatSettings, type ChatFlags } from './chat-settings.js';
import { ChatSession } from './chat-session.js';
import { connectModel } from './connect-model.js';
import { createLineReader } from './line-reader.js';
import { runSlashCommand } from './slash-commands.js';

export interface RunChatOptions {
  readonly io: CliIo;
  readonly flags: ChatFlags;
  readonly usePlugins: boolean;
  readonly debug: boolean;
  readonly registry?: ProviderRegistry;
  readonly input: NodeJS.ReadableStream;
  /** A terminal on both ends: prompt and line editing; otherwise input lines are echoed as `> line`. */
  readonly terminal: boolean;
  readonly terminalOutput?: NodeJS.WritableStream;
}

/** Teaches the model the markers the goal manager reads; short, because it is sent every turn. */
const SYSTEM_PROMPT = [
  'You are a helpful assistant in a long conversation whose older parts may be summarised.',
  'Mark progress on lines of their own: [GOAL] text, [CHECKPOINT] text - COMPLETED|IN PROGRESS|PENDING, [DECISION] text - LOCKED, [ARTIFACT] Created|Modified|Deleted path, [NEXT] text.',
].join('\n');

/** Commands after which the context may have changed, so the status line follows. */
const CHANGING_COMMANDS = /^\/(compact|goal\s+\S|decision\s+\S|snapshot\s+restore)/;

/**
 * `ollm` with no subcommand: checks the model answers (exit 3 with one line when not), resumes or
 * starts a session, then reads lines until EOF, Ctrl-D, `/quit` or Ctrl-C twice. A session whose
 * messages all failed ends with `NoReplyError` (exit 4; 3 when the server was unreachable each time).
 */
export async function runChat(options: RunChatOptions): Promise<void> {
  const { io } = options;
  const settings = await resolveChatSettings(io, options.flags);
  const { config } = settings.loaded;
  // Before anything else is printed: an unreachable model is exactly one line.
  const connected = await connectModel(io, config, settings.contextSize);
  const { registry, available } = await loadProviders({ io, usePlugins: options.usePlugins, ...(options.registry ? { registry: options.registry } : {}) });

  // Safe mode loads no provider: the chat still runs, kept inside the window by core's window guard.
  const provider = options.usePlugins || registry.has(config.provider) ? registry.get(config.provider).name : 'none';
  // Stages that are not installed are left out here, so /status and /providers show what really runs.
  const autoPipeline = buildAutoPipeline(config.compaction.autoPipeline, provider, registry).text;
  const sessionId = settings.sessionId ?? newSessionId();
  // Before anything is written: a session another chat holds is refused, not interleaved.
  const lock = acquireSessionLock({ home: config.home, sessionId, force: settings.force });
  const tidied = tidyHomeAtStart(config);
  const secrets = config.apiKey ? [config.apiKey] : [];
  const history = new SessionHistory({ home: config.home, sessionId, model: config.model, provider, secrets });
  const snapshots = new SnapshotStore({
    home: config.home,
    retain: config.snapshots.retain,
    retainManual: config.snapshots.retainManual,
    secrets,
    onDamaged: (path, error) => io.stderr.write(`ollm: warning: skipped a damaged snapshot: ${oneLine(error.message)} (${path})\n`),
  });
  const modelSize = parseModelSize(connected.parameterSize) ?? parseModelSize(config.model);
  const manager = new ContextManager({
    contextSize: connected.contextSize,
    ...(config.compaction.replyReserve !== undefined ? { replyReserve: config.compaction.replyReserve } : {}),
    automaticCompaction: config.compaction.enabled,
    shape: config.compaction.shape,
    systemPrompt: SYSTEM_PROMPT,
    goalMarkers: config.goals.modelMarkers,
    tokens: new TokenCounter(createTokenizer(encodingForModel(config.model))),
    registry,
    model: connected.model,
    modelName: config.model,
    ...(modelSize !== undefined ? { modelSizeBillions: modelSize } : {}),
    threshold: config.compaction.threshold,
    autoPipeline,
    circuitBreakerFailures: config.compaction.circuitBreakerFailures,
    maxToolResultTokens: config.compaction.maxToolResultTokens,
    reasoningStripAgeThreshold: config.compaction.reasoningStripAgeThreshold,
    logdir: config.home,
    extraConfig: {
      preserveRecent: config.compaction.preserveRecent,
      summaryMaxTokens: config.compaction.summaryMaxTokens,
      userShare: config.compaction.userShare,
      workspace: io.cwd,
    },
    providerOptions: config.providerOptions,
    history,
    snapshots,
    sessionId,
    autoSnapshot: config.snapshots.enabled && config.snapshots.autoCreate,
    logger: providerLogger(io, options.debug),
  });

  const contextFile = activeContextPath(config.home, sessionId);
  const resumeWarnings: string[] = [];
  const resumed = resume(manager, history, contextFile, (message) => resumeWarnings.push(message));
  const session = new ChatSession({
    io,
    colors: colorsFor(io),
    manager,
    model: connected.model,
    history,
    snapshots,
    registry,
    sessionId,
    home: config.home,
    modelName: config.model,
    endpoint: connected.endpoint,
    provider,
    autoPipeline,
    automaticCompaction: config.compaction.enabled,
    contextFile,
    secrets,
    debug: options.debug,
    goalMarkers: config.goals.modelMarkers,
  });
  const budget = manager.budget();
  session.print(
    `ollm chat · session ${sessionId} · ${config.model} at ${connected.endpoint} · window ${formatInteger(connected.contextSize)} tokens (${formatInteger(budget.replyReserve)} kept for the reply) · provider ${provider}`,
  );
  if (tidied) session.print(colorsFor(io).dim(tidied));
  if (lock.tookOverStaleLock || lock.tookOverLiveLock) {
    session.warn(
      `took over session ${sessionId} from ${lock.tookOverLiveLock ? 'a running' : 'an ended'} ollm${lock.previousPid !== undefined ? ` (pid ${lock.previousPid})` : ''}`,
    );
  }
  for (const warning of [...settings.loaded.warnings, ...unusedProviderOptions(config.providerOptions, available)]) session.warn(`warning: ${warning}`);
  for (const warning of resumeWarnings) session.warn(warning);
  if (resumed) {
    session.print(`Resumed: ${resumed}.`);
    session.print(session.statusLine());
  }
  await session.checkReliability();
  session.print('Type /help for commands; end a line with \\ to go on on the next one; Ctrl-D or /quit ends the chat.');

  const colors = colorsFor(io);
  const reader = createLineReader({
    input: options.input,
    terminal: options.terminal,
    ...(options.terminalOutput ? { output: options.terminalOutput } : {}),
    onQuitHint: () => session.print(colors.dim('\n(press Ctrl-C again to quit, or Ctrl-D, or type /quit)')),
  });
  // SIGTERM (a service manager, `kill`) ends the chat as Ctrl-D would leave it: the context is saved
  // after every turn; the history is closed and the session lock released, so no stale lock stays.
  const terminate = (): void => {
    reader.close();
    history.close();
    lock.release();
    io.stderr.write(`ollm: terminated; session ${sessionId} saved under ${config.home} (resume with: ollm --session ${sessionId})\n`);
    process.exit(143);
  };
  process.once('SIGTERM', terminate);
  try {
    for (;;) {
      const input = await reader.nextInput();
      if (input === undefined) break;
      if (!options.terminal)
        io.stdout.write(
          `${input.text
            .split('\n')
            .map((line, index) => `${index === 0 ? '>' : '.'} ${line}`)
            .join('\n')}\n`,
        );
      // Messages keep their indentation and inner newlines; only a slash command is trimmed.
      const text = input.text.replace(/\s+$/, '');
      if (text.trim().length === 0) continue;
      if (input.source === 'line' && text.trimStart().startsWith('/')) {
        const command = text.trim();
        if ((await runSlashCommand(session, command)) === 'quit') break;
        if (CHANGING_COMMANDS.test(command)) await session.afterChange();
        else await session.saveContext();
        continue;
      }
      await session.reply(text, reader);
      await session.afterChange();
    }
  } finally {
    process.off('SIGTERM', terminate);
    reader.close();
    history.close();
    lock.release();
  }
  // Ctrl-D or Ctrl-C leave the cursor after the prompt.
  if (options.terminal) session.print();
  session.print(`Session ${sessionId} saved under ${config.home}. Resume with: ollm --session ${sessionId}`);
  // A session that sent messages and got no reply at all failed, whatever else it did (exit 4, or 3).
  const { answered, failed, unreachable } = session.turns;
  if (answered === 0 && failed > 0) throw new NoReplyError({ failed, unreachable: unreachable === failed });
}

/**
 * The config's stages that call no model (`usesModel`), then the `--provider` stages (a model-based
 * provider by default); only installed ones, so /status and /providers show what really runs.
 */
function buildAutoPipeline(configured: string, provider: string, registry: ProviderRegistry): Pipeline {
  const installed = (name: string) => registry.has(name);
  const ruleStages = parsePipeline(configured).names.filter((name) => installed(name) && !providerUsesModel(registry.get(name)));
  const providerStages = provider === 'none' ? [] : parsePipeline(provider).names.filter(installed);
  return parsePipeline([...new Set([...ruleStages, ...providerStages])].join(','));
}

/**
 * Resumes from `context.json` (the context after the last turn, or a snapshot `ollm snapshot
 * restore` put there); without it, from the session's full record. Returns what was resumed.
 */
function resume(manager: ContextManager, history: SessionHistory, contextFile: string, warn: (message: string) => void): string | undefined {
  const saved = readActiveContext(contextFile, (movedTo, reason) =>
    warn(`warning: the saved context ${contextFile} is damaged (${reason}): moved aside to ${movedTo}; resuming from the session record`),
  );
  if (saved) {
    manager.restoreState(saved.context);
    const from = saved.restoredFrom ? `snapshot ${saved.restoredFrom}` : 'the saved context';
    return `${formatInteger(saved.context.messages.length)} messages from ${from}`;
  }
  const record = history.read();
  if (record.messages.length === 0) return undefined;
  manager.restoreState({ systemPrompt: manager.state().systemPrompt, messages: record.messages, compactionCount: record.metadata.compactionCount });
  return `${formatInteger(record.messages.length)} messages from the session record`;
}

/** Provider warnings reach stderr; info and debug only with --debug. */
function providerLogger(io: CliIo, debug: boolean): Logger {
  const write = (level: string, message: string) => io.stderr.write(`ollm: ${level}: ${oneLine(message)}\n`);
  return {
    debug: (message) => debug && write('debug', message),
    info: (message) => debug && write('info', message),
    warn: (message) => write('warning', message),
  };
}
