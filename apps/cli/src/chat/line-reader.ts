import { createInterface, type Key } from 'node:readline';
import { disableBracketedPaste, enableBracketedPaste, insertPaste, normalizePaste } from './input/bracketed-paste.js';
import type { ChatInput } from './input/chat-input.js';
import { InputDraft } from './input/input-draft.js';
import { TerminalKeyRouter } from './input/terminal-key-router.js';

export type { ChatInput } from './input/chat-input.js';

export interface LineReaderOptions {
  readonly input: NodeJS.ReadableStream;
  /** A terminal: prompt, line editing, bracketed paste, and Ctrl-C as a key. Otherwise lines are read as they come (pipes). */
  readonly terminal: boolean;
  /** Where the prompt is drawn (terminal only). */
  readonly output?: NodeJS.WritableStream;
  readonly prompt?: string;
  /** The prompt while an input goes on over more lines (terminal only). */
  readonly continuationPrompt?: string;
  /** Told when Ctrl-C at an empty prompt needs a second press to quit. */
  readonly onQuitHint?: () => void;
}

/** Inputs typed, pasted or piped in, one at a time, and Ctrl-C routed to whatever is running. */
export interface LineReader {
  /**
   * The next input; undefined at the end: EOF, Ctrl-D, or Ctrl-C twice at an empty prompt. An
   * input still being continued at the end is delivered first. Draws the prompt on a terminal.
   */
  nextInput(): Promise<ChatInput | undefined>;
  /**
   * True while a reply streams or a compression runs; false before asking for the next input.
   * On a terminal, keys typed meanwhile are held, not echoed into the reply, and typed at the next
   * prompt as they came (Enter submits; a paste inserts whole); Ctrl-C, Ctrl-D and Ctrl-Z act at
   * once. Piped lines keep queuing, each its own input.
   */
  setBusy(busy: boolean): void;
  /** While a reply streams, Ctrl-C calls this handler (to cancel it) instead of quitting. */
  setInterruptHandler(handler: (() => void) | undefined): void;
  close(): void;
}

type KeypressListener = (text: string | undefined, key: Key) => void;

/**
 * Reads with Node's readline. Ctrl-C arrives as a key on a terminal (readline's `SIGINT`) and as
 * a signal otherwise; both go to one place. The process's other SIGINT listeners (the binary's
 * "abort and exit 130") are set aside while the chat runs and put back on close, because in a
 * chat Ctrl-C cancels a reply rather than ending the program.
 *
 * One input is one line, except: a line ending with an unpaired `\` goes on on the next line
 * (the backslash dropped, the newline kept; `\\` at the end is one literal backslash); and on a
 * terminal a bracketed paste is inserted at the cursor whole, newlines and indentation kept, and
 * is submitted, like typed text, by the next Enter (the last pasted line can still be edited).
 * Enter right after a paste submits it exactly, even if its last line ends with a backslash.
 */
export function createLineReader(options: LineReaderOptions): LineReader {
  const { input, terminal } = options;
  const output = terminal ? options.output : undefined;
  const primaryPrompt = options.prompt ?? '> ';
  const continuationPrompt = options.continuationPrompt ?? '... ';
  const keypressListenersBefore = new Set(input.listeners('keypress'));
  const readline = createInterface({ input, ...(output ? { output } : {}), terminal, prompt: primaryPrompt });
  const draft = new InputDraft();
  const queued: ChatInput[] = [];
  const waiting: ((chatInput: ChatInput | undefined) => void)[] = [];
  let ended = false;
  let closed = false;
  let busy = false;
  let interruptHandler: (() => void) | undefined;
  let quitArmed = false;
  let insertingPaste = false;

  const deliver = (chatInput: ChatInput): void => {
    const resolve = waiting.shift();
    if (resolve) resolve(chatInput);
    else queued.push(chatInput);
  };
  const showPrompt = (prompt: string): void => {
    readline.setPrompt(prompt);
    readline.prompt(true);
  };

  // Readline listens to the decoded keys itself; its listener is moved behind the router so that
  // a paste's newlines, and keys typed while busy, never reach its line buffer.
  const readlineKeypress = input.listeners('keypress').filter((listener) => !keypressListenersBefore.has(listener)) as KeypressListener[];
  const router = terminal
    ? new TerminalKeyRouter({
        forward: (text, key) => {
          for (const listener of readlineKeypress) listener(text, key);
        },
        onPaste: (text) => {
          insertingPaste = true;
          try {
            insertPaste(readline, normalizePaste(text));
          } finally {
            insertingPaste = false;
          }
          draft.markPasted();
        },
      })
    : undefined;
  const routeKeypress: KeypressListener = (text, key) => router?.handle(text, key);
  if (router) {
    for (const listener of readlineKeypress) input.removeListener('keypress', listener);
    input.on('keypress', routeKeypress);
    if (output) output.write(enableBracketedPaste);
  }

  const finish = (): void => {
    if (ended) return;
    ended = true;
    input.removeListener('keypress', routeKeypress);
    const unfinishedPaste = router?.takeUnfinishedPaste();
    if (unfinishedPaste !== undefined) draft.addPastedRow(normalizePaste(unfinishedPaste));
    const pending = draft.take();
    if (pending) deliver(pending);
    for (const resolve of waiting.splice(0)) resolve(undefined);
    readline.close();
  };

  readline.on('line', (line: string) => {
    quitArmed = false;
    if (insertingPaste) {
      draft.addPastedRow(line);
      showPrompt(continuationPrompt);
      return;
    }
    const finished = draft.addLine(line, router?.enterFollowsPaste ?? false);
    if (finished) {
      readline.setPrompt(primaryPrompt);
      deliver(finished);
    } else if (terminal) {
      showPrompt(continuationPrompt);
    }
  });
  readline.on('close', finish);

  const interrupt = (): void => {
    if (interruptHandler) {
      interruptHandler();
      return;
    }
    if (!terminal) {
      finish();
      return;
    }
    if (readline.line.length > 0 || !draft.isEmpty) {
      // Ctrl-C with text typed clears it, all its lines, as shells do.
      readline.write(null, { ctrl: true, name: 'e' });
      readline.write(null, { ctrl: true, name: 'u' });
      if (!draft.isEmpty) {
        draft.clear();
        showPrompt(primaryPrompt);
      }
      quitArmed = false;
      return;
    }
    if (quitArmed) {
      finish();
      return;
    }
    quitArmed = true;
    options.onQuitHint?.();
    // While busy the prompt would land in the middle of the reply; the next nextInput() draws it.
    if (!busy) readline.prompt();
  };
  readline.on('SIGINT', interrupt);
  const previousListeners = process.rawListeners('SIGINT');
  process.removeAllListeners('SIGINT');
  process.on('SIGINT', interrupt);

  return {
    nextInput() {
      const next = queued.shift();
      if (next) return Promise.resolve(next);
      if (ended) return Promise.resolve(undefined);
      if (terminal) readline.prompt(true);
      const answer = new Promise<ChatInput | undefined>((resolve) => waiting.push(resolve));
      // Type-ahead: what was typed while the model was busy, typed at the prompt now.
      router?.replayHeld();
      return answer;
    },
    setBusy(value) {
      busy = value;
      router?.setBusy(value);
    },
    setInterruptHandler(handler) {
      interruptHandler = handler;
    },
    close() {
      if (closed) return;
      closed = true;
      finish();
      if (router && output) output.write(disableBracketedPaste);
      process.off('SIGINT', interrupt);
      for (const listener of previousListeners) process.on('SIGINT', listener as NodeJS.SignalsListener);
    },
  };
}
