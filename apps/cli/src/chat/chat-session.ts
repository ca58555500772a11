import type { ContextManager, LanguageModel, Message, ProviderRegistry, ReliabilityLevel, SessionHistory, SnapshotStore } from '@ollm/core';
import type { CliIo } from '../cli-io.js';
import { oneLine, reportError } from '../exit-codes.js';
import type { Colors } from '../output/colors.js';
import { startSpinner } from '../output/progress-spinner.js';
import { writeActiveContext } from '../sessions/active-context-file.js';
import { describeCompression } from './describe-compression.js';
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
  /** `--provider`: the model-based stage automatic compression ends with. */
  readonly provider: string;
  readonly autoPipeline: string;
  /** False when config turns automatic compression off. */
  readonly automaticCompression: boolean;
  readonly contextFile: string;
  /** API keys: never written to the context file. */
  readonly secrets: readonly string[];
  readonly debug: boolean;
}

/**
 * One running chat: sends turns to the model with the compressed context, reports compressions
 * as they happen, and saves the active context after every input so the session can resume.
 */
export class ChatSession {
  readonly options: ChatSessionOptions;
  private lastLevel: ReliabilityLevel;

  constructor(options: ChatSessionOptions) {
    this.options = options;
    this.lastLevel = options.manager.reliability().level;
    this.reportEvents();
  }

  get manager(): ContextManager {
    return this.options.manager;
  }

  print(line = ''): void {
    this.options.io.stdout.write(`${line}\n`);
  }

  warn(message: string): void {
    this.options.io.stderr.write(`${this.options.colors.yellow('ollm:')} ${oneLine(message)}\n`);
  }

  async printError(error: unknown): Promise<void> {
    const report = await reportError(error, this.options.io.cwd);
    this.options.io.stderr.write(`${this.options.colors.red('ollm:')} ${oneLine(report.message)}\n`);
  }

  /**
   * One turn: the user message, the streamed reply, the server's prompt count for calibration,
   * then automatic compression. Ctrl-C while the reply streams cancels it; the partial reply is
   * kept (marked `interrupted` in its metadata), so nothing the user saw is lost. A failed reply
   * keeps the user message and drops any partial text.
   */
  async reply(text: string, reader: LineReader): Promise<void> {
    const { io, manager, model } = this.options;
    manager.addMessage({ role: 'user', parts: [{ type: 'text', text }] });
    const sent = manager.messagesForModel();
    const controller = new AbortController();
    reader.setInterruptHandler(() => controller.abort());
    const spinner = startSpinner(io, 'waiting for the model');
    let streamed = '';
    const stopSpinner = onlyOnce(() => spinner.stop());
    try {
      const result = await model.complete({
        messages: sent,
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
      if (result.text.length > 0) manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: result.text }] });
      else this.print(this.options.colors.dim('(empty reply)'));
      if (result.usage.inputTokens !== undefined) manager.recordReportedPromptTokens(result.usage.inputTokens, sent);
    } catch (error) {
      stopSpinner();
      if (streamed.length > 0) this.print();
      if (controller.signal.aborted) {
        if (streamed.length > 0) manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: streamed }], metadata: { interrupted: true } });
        this.print(this.options.colors.dim(streamed.length > 0 ? '(reply cancelled; the partial reply is kept)' : '(reply cancelled)'));
      } else {
        await this.printError(error);
      }
    } finally {
      reader.setInterruptHandler(undefined);
    }
    await this.compressIfNeeded(reader);
  }

  /** Automatic compression after a turn, when the budget says so. */
  async compressIfNeeded(reader: LineReader): Promise<void> {
    if (!this.options.automaticCompression || !this.manager.shouldCompress()) return;
    // Ctrl-C cancels the stages still running (a model call in flight); the window is still kept.
    const controller = new AbortController();
    reader.setInterruptHandler(() => {
      controller.abort();
      this.print(this.options.colors.dim('(compression cancelled; the context stays inside the window)'));
    });
    const spinner = startSpinner(this.options.io, 'compressing the context');
    try {
      await this.manager.maybeCompress({ abortSignal: controller.signal });
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
    const reliability = this.manager.reliability();
    if (reliability.level !== this.lastLevel) {
      const fell = levelRank[reliability.level] > levelRank[this.lastLevel];
      if (fell && (reliability.level === 'low' || reliability.level === 'critical')) {
        const { reliabilityWarning } = await import('@ollm/core');
        this.print(this.options.colors.yellow(reliabilityWarning(this.options.modelName, this.manager.compressionCount)));
      }
      this.lastLevel = reliability.level;
    }
    this.print(this.statusLine());
    await this.saveContext();
  }

  statusLine(): string {
    const reliability = this.manager.reliability();
    const line = formatStatusLine({ budget: this.manager.budget(), reliability, compressions: this.manager.compressionCount, provider: this.options.provider });
    return colorForLevel(this.options.colors, reliability.level)(line);
  }

  async saveContext(): Promise<void> {
    await writeActiveContext(
      this.options.contextFile,
      { version: 1, sessionId: this.options.sessionId, savedAt: new Date().toISOString(), context: this.manager.state() },
      this.options.secrets,
    );
  }

  /** The full, uncompressed record from the session file. */
  recordedMessages(): readonly Message[] {
    return this.options.history.read().messages;
  }

  private reportEvents(): void {
    const { manager, colors, debug } = this.options;
    manager.on('compressed', (event) => this.print(colors.cyan(describeCompression(event))));
    manager.on('compression-error', (event) => this.warn(`compression with ${event.provider} failed: ${event.error.message} (the context is unchanged)`));
    manager.on('circuit-open', (event) =>
      this.warn(`${event.provider} failed ${event.failures} times in a row: automatic compression uses ${event.fallback} only for now`),
    );
    manager.on('user-messages-folded', (event) =>
      this.print(colors.cyan(`folded ${event.messageIds.length} old user message${event.messageIds.length === 1 ? '' : 's'} into a checkpoint (${event.reason})`)),
    );
    manager.on('rollover-complete', (event) => this.print(colors.cyan(`context restarted by ${event.provider} (rollover)`)));
    if (!debug) return;
    manager.on('compression-skipped', (event) => this.print(colors.dim(`skipped ${event.provider}: ${event.reason}`)));
    manager.on('auto-snapshot-created', (event) => this.print(colors.dim(`snapshot ${event.snapshotId} taken before compressing`)));
    manager.on('checkpoint-created', (event) => this.print(colors.dim(`checkpoint ${event.checkpointId} created (${event.tokens} tokens)`)));
    manager.on('checkpoint-aged', (event) => this.print(colors.dim(`checkpoint ${event.checkpointId} aged to level ${event.level} (${event.tokens} tokens)`)));
  }
}

/** Higher is worse: the warning is for a fall, not for a restore that brought reliability back up. */
const levelRank: Readonly<Record<ReliabilityLevel, number>> = { high: 0, medium: 1, low: 2, critical: 3 };

function onlyOnce(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
