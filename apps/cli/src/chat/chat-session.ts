import { ContextOverflowError, checkReliabilityWarning, compactionGuidance, reliabilityWarning } from '@ollm/runtime';
import { ModelUnavailableError, type LanguageModel, type Message } from '@ollm/core';
import type { ContextManager, ModelMarkerPolicy, ProviderRegistry, ReliabilityWatch, SessionHistory, SnapshotStore } from '@ollm/runtime';
import type { CliIo } from '../cli-io.js';
import { oneLine } from '../exit-codes.js';
import { reportError } from '../report-error.js';
import type { Colors } from '../output/colors.js';
import { clearSpinners, startSpinner } from '../output/progress-spinner.js';
import { writeActiveContext } from '../sessions/active-context-file.js';
import { describeCompaction } from './describe-compaction.js';
import { describeGoalProposal } from './describe-goal-proposal.js';
import type { LineReader } from './line-reader.js';
import { colorForLevel, formatStatusLine } from './status-line.js';

export interface ChatSessionOptions {
  readonly io: CliIo;
  readonly colors: Colors;
  readonly manager: ContextManager;
  readonly model: LanguageModel;
  readonly history: SessionHistory;
  readonly snapshots: SnapshotStore;
  readonly registry: ProviderRegistry;
  readonly sessionId: string;
  readonly home: string;
  readonly modelName: string;
  /** Where the model is served: `http://127.0.0.1:11434`. */
  readonly endpoint: string;
  /** `--provider`: the model-based stage automatic compaction ends with. */
  readonly provider: string;
  readonly autoPipeline: string;
  /** False when config turns automatic compaction off (`compaction.enabled`). */
  readonly automaticCompaction: boolean;
  readonly contextFile: string;
  /** API keys: never written to the context file. */
  readonly secrets: readonly string[];
  readonly debug: boolean;
  /** What the model's goal and lock markers may do (config `goals.modelMarkers`): named in the notices. */
  readonly goalMarkers: ModelMarkerPolicy;
  /** The time saved contexts are stamped with; tests inject one. Default the system clock. */
  readonly clock?: () => Date;
}

/** How the turns of a session went: what the chat's exit code is decided from. */
export interface TurnTally {
  /** Turns that got a reply (a cancelled one that kept part of its reply too). */
  answered: number;
  /** Turns that got none: an error, an empty reply, or a message too large to send. */
  failed: number;
  /** Failed turns whose error was an unreachable model server. */
  unreachable: number;
}

/**
 * One running chat: sends turns to the model with the compressed context, reports compactions
 * as they happen, and saves the active context after every input so the session can resume.
 */
export class ChatSession {
  readonly options: ChatSessionOptions;
  readonly turns: TurnTally = { answered: 0, failed: 0, unreachable: 0 };
  /** What the reliability warning rule remembers between checks (`checkReliabilityWarning`). */
  private reliabilityWatch: ReliabilityWatch | undefined;

  constructor(options: ChatSessionOptions) {
    this.options = options;
    this.reportEvents();
  }

  get manager(): ContextManager {
    return this.options.manager;
  }

  /** Prints a line; a spinner on the terminal is cleared first, so nothing is glued to its frame. */
  print(line = ''): void {
    clearSpinners(this.options.io);
    this.options.io.stdout.write(`${line}\n`);
  }

  warn(message: string): void {
    clearSpinners(this.options.io);
    this.options.io.stderr.write(`${this.options.colors.yellow('ollm:')} ${oneLine(message)}\n`);
  }

  async printError(error: unknown): Promise<void> {
    const report = await reportError(error, this.options.io.cwd);
    clearSpinners(this.options.io);
    this.options.io.stderr.write(`${this.options.colors.red('ollm:')} ${oneLine(report.message)}\n`);
  }

  /**
   * One turn: the user message, then the runtime's `complete()`: the request is checked against
   * the window less the reply reserve and compressed first when it does not fit, the reserve goes
   * out as the reply limit, and the server's prompt count calibrates the budget. Then automatic
   * compression at the threshold. Ctrl-C while the reply streams cancels it; the partial reply is
   * kept (marked `interrupted` in its metadata), so nothing the user saw is lost. A failed reply
   * keeps the user message and drops any partial text. A message that cannot fit the window even
   * alone is not sent: it leaves the context (the session record keeps it) with a clear error.
   */
  async reply(text: string, reader: LineReader): Promise<void> {
    const { io, manager } = this.options;
    const pending = manager.addMessage({ role: 'user', parts: [{ type: 'text', text }] });
    const controller = new AbortController();
    reader.setBusy(true);
    reader.setInterruptHandler(() => controller.abort());
    const spinner = startSpinner(io, 'waiting for the model');
    let streamed = '';
    const stopSpinner = onlyOnce(() => spinner.stop());
    try {
      const result = await manager.complete({
        model: this.options.model,
        abortSignal: controller.signal,
        onTextDelta: (delta) => {
          stopSpinner();
          streamed += delta;
          io.stdout.write(delta);
        },
      });
      stopSpinner();
      if (streamed.length === 0 && result.text.length > 0) io.stdout.write(result.text);
      this.print();
      if (result.text.length > 0) {
        this.turns.answered += 1;
        manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: result.text }] });
      } else {
        this.turns.failed += 1;
        this.print(this.options.colors.dim('(empty reply)'));
      }
    } catch (error) {
      stopSpinner();
      if (streamed.length > 0) this.print();

      if (ContextOverflowError.isInstance(error)) {
        this.turns.failed += 1;
        if (error.messageId === pending.id) manager.removeMessage(pending.id);
        await this.printError(error);
        if (error.messageId === pending.id) this.print(this.options.colors.dim('(the message was not sent; the session record keeps it)'));
      } else if (controller.signal.aborted) {
        if (streamed.length > 0) {
          this.turns.answered += 1;
          manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: streamed }], metadata: { interrupted: true } });
        }
        this.print(this.options.colors.dim(streamed.length > 0 ? '(reply cancelled; the partial reply is kept)' : '(reply cancelled)'));
      } else {
        this.turns.failed += 1;
        if (ModelUnavailableError.isInstance(error)) this.turns.unreachable += 1;
        await this.printError(error);
      }
    } finally {
      reader.setInterruptHandler(undefined);
    }
    try {
      await this.compactIfNeeded(reader);
    } finally {
      reader.setBusy(false);
    }
  }

  /** Automatic compaction after a turn, when the budget says so. */
  async compactIfNeeded(reader: LineReader): Promise<void> {
    if (!this.options.automaticCompaction || !this.manager.shouldCompact()) return;
    // Ctrl-C cancels the stages still running (a model call in flight); the window is still kept.
    const controller = new AbortController();
    reader.setInterruptHandler(() => {
      controller.abort();
      this.print(this.options.colors.dim('(compaction cancelled; the context stays inside the window)'));
    });
    const spinner = startSpinner(this.options.io, 'compacting the context');
    try {
      await this.manager.maybeCompact({ abortSignal: controller.signal });
    } catch (error) {
      await this.printError(error);
    } finally {
      spinner.stop();
      reader.setInterruptHandler(undefined);
    }
  }

  /**
   * After every turn and every command that changed the context: the reliability warning when
   * the level changed to low or critical, the status line, and the saved context.
   */
  async afterChange(): Promise<void> {
    await this.checkReliability();
    this.print(this.statusLine());
    await this.saveContext();
  }

  /**
   * The reliability warning (`checkReliabilityWarning`): when the session starts below medium,
   * whenever the level drops, and when the model-summary count passes what the model's size keeps
   * well. An unknown model size says so once, instead of a level it cannot know.
   */
  async checkReliability(): Promise<void> {
    const reliability = this.manager.reliability();
    const summaryCount = this.manager.summaryCount;
    const previous = this.reliabilityWatch;
    const guidance = compactionGuidance(this.manager.modelSizeBillions);
    const check = checkReliabilityWarning(previous, { level: reliability.level, summaryCount, guidance });
    this.reliabilityWatch = check.watch;
    if (reliability.level === 'unknown' && previous === undefined)
      this.print(this.options.colors.dim(`reliability unknown: the size of ${this.options.modelName} is not in its name and the server did not report it`));
    if (check.warn) this.print(this.options.colors.yellow(reliabilityWarning(this.options.modelName, summaryCount, reliability.level, guidance)));
  }

  statusLine(): string {
    const reliability = this.manager.reliability();
    const line = formatStatusLine({ budget: this.manager.budget(), reliability, compactions: this.manager.compactionCount, provider: this.options.provider });
    return colorForLevel(this.options.colors, reliability.level)(line);
  }

  async saveContext(): Promise<void> {
    writeActiveContext(
      this.options.contextFile,
      { version: 1, sessionId: this.options.sessionId, savedAt: (this.options.clock ?? (() => new Date()))().toISOString(), context: this.manager.state() },
      this.options.secrets,
    );
  }

  /** The full, uncompressed record from the session file. */
  recordedMessages(): readonly Message[] {
    return this.options.history.read().messages;
  }

  private reportEvents(): void {
    const { manager, colors, debug } = this.options;
    manager.on('compacted', (event) => this.print(colors.cyan(describeCompaction(event))));
    manager.on('compaction-error', (event) => this.warn(`compaction with ${event.provider} failed: ${event.error.message} (the context is unchanged)`));
    manager.on('circuit-open', (event) =>
      this.warn(`${event.provider} failed ${event.failures} times in a row: automatic compaction uses ${event.fallback} only for now`),
    );
    manager.on('user-messages-folded', (event) =>
      this.print(colors.cyan(`folded ${event.messageIds.length} old user message${event.messageIds.length === 1 ? '' : 's'}: ${event.reason}`)),
    );
    manager.on('rollover-complete', (event) => this.print(colors.cyan(`context restarted by ${event.provider} (rollover)`)));
    // A goal or a locked decision the model wrote, applied or not: the user sees it, on stderr.
    manager.on('goal-proposed', (proposal) => this.warn(describeGoalProposal(proposal, this.options.goalMarkers)));
    manager.on('tool-results-truncated', (event) =>
      this.print(
        colors.cyan(
          event.results
            .map(
              (result) =>
                `tool output cut from ${result.tokensBefore} to ${result.tokensAfter} tokens before sending (ollm recover ${result.sha256.slice(0, 12)})`,
            )
            .join('\n'),
        ),
      ),
    );
    if (!debug) return;
    manager.on('compaction-skipped', (event) => this.print(colors.dim(`skipped ${event.provider}: ${event.reason}`)));
    manager.on('auto-snapshot-created', (event) => this.print(colors.dim(`snapshot ${event.snapshotId} taken before compacting`)));
    manager.on('checkpoint-created', (event) => this.print(colors.dim(`checkpoint ${event.checkpointId} created (${event.tokens} tokens)`)));
    manager.on('checkpoint-aged', (event) => this.print(colors.dim(`checkpoint ${event.checkpointId} aged to level ${event.level} (${event.tokens} tokens)`)));
  }
}

function onlyOnce(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
