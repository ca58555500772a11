import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCounter, createTokenizer, type Message } from '@ollm/core';
import { SnapshotStore } from '@ollm/runtime';
import { chatRequests, startFakeModelServer } from '@ollm/fake-model-server';
import { nodeArguments, ScriptedChat, type OllmLaunch } from './scripted-chat.js';
import { wordsOfTokens } from './words-of-tokens.js';

/** One run of the scripted chat: a window, and whether the server under-reports prompt sizes. */
export interface ChatWindowCase {
  readonly window: number;
  /** The share of the real prompt size the server reports (0.1 = under-reports by 10x). */
  readonly reportedScale: number;
}

/** What the fake server received in one case. */
export interface ChatWindowResult extends ChatWindowCase {
  readonly requests: number;
  /** The largest prompt received, in tokens (o200k, counted by the server) and as a share of the window. */
  readonly largestTokens: number;
  readonly largestShare: number;
  /** Requests over `window - 15%` (the default reply reserve) and over the whole window. */
  readonly overReserve: number;
  readonly overWindow: number;
  /** Requests that carried a reply limit (`num_predict`). */
  readonly withReplyLimit: number;
  /** The first request after resuming from a snapshot at 99% of the window, as a share of it. */
  readonly resumedFirstShare: number;
  /** Pastes the chat refused because they could not fit the window on their own. */
  readonly refusedPastes: number;
}

export const DEFAULT_CASES: readonly ChatWindowCase[] = [2048, 4096, 16_384].flatMap((window) => [
  { window, reportedScale: 1 },
  { window, reportedScale: 0.1 },
]);

/** Pastes of 1.2-5K tokens, sent whenever the status line shows the context 70-95% full. */
const PASTE_TOKENS = [1200, 2000, 3500, 5000];
const MAXIMUM_TURNS = 40;
const RESERVE_SHARE = 0.15;

/**
 * Drives the real `ollm` binary with piped input against the loopback fake model server: short
 * turns until the context is 70-95% full, then large pastes, then a resume from a snapshot at 99%
 * of the window. Returns what the server received. The binary is a parameter, so the same script
 * measures any build of ollm (with a preload: the docs record it on their fixed clock, so the ids
 * and times the saved turns hold, and the fold tags hashed from them, are the same every run).
 */
export async function runChatWindowCase(binaryOrLaunch: string | OllmLaunch, input: ChatWindowCase): Promise<ChatWindowResult> {
  const binary: OllmLaunch = typeof binaryOrLaunch === 'string' ? { binary: binaryOrLaunch } : binaryOrLaunch;
  const server = await startFakeModelServer({ reportedPromptTokenScale: input.reportedScale });
  const folder = mkdtempSync(join(tmpdir(), 'ollm-chat-window-'));
  const env = { OLLM_HOME: join(folder, 'home'), NO_COLOR: '1' };
  const args = ['--model', 'fake-llama:8b', '--host', server.url, '--context-size', String(input.window)];
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  try {
    const chat = new ScriptedChat(binary, [...args, '--session', 'window-case'], env, folder);
    const pastes = [...PASTE_TOKENS];
    let statusLines = 0;
    for (let turn = 0; turn < MAXIMUM_TURNS && pastes.length > 0; turn += 1) {
      const full = chat.lastFullness();
      const paste = full !== undefined && full >= 70 && full <= 95 ? pastes.shift() : undefined;
      const tokens = paste ?? Math.max(40, Math.floor(input.window * 0.07));
      chat.send(`turn ${turn}: ${wordsOfTokens(tokens, turn, counter)}`);
      statusLines += 1;
      await chat.waitForStatusLines(statusLines);
    }
    await chat.end();
    // Counted once the chat has ended: the refusal goes to stderr, which may trail the status line.
    const refusedPastes = chat.countInStderr(/Nothing was sent/g);

    const resumedCount = chatRequests(server).length;
    await resumeAtNinetyNinePercent(binary, args, env, folder, input.window, counter);
    const chats = chatRequests(server);
    const limit = Math.floor(input.window * (1 - RESERVE_SHARE));
    const largestTokens = Math.max(0, ...chats.map((request) => request.promptTokens));
    const resumed = chatRequests(server).slice(resumedCount)[0];
    return {
      ...input,
      requests: chats.length,
      largestTokens,
      largestShare: largestTokens / input.window,
      overReserve: chats.filter((request) => request.promptTokens > limit).length,
      overWindow: chats.filter((request) => request.promptTokens > input.window).length,
      withReplyLimit: chats.filter((request) => request.maxTokens !== undefined).length,
      resumedFirstShare: resumed ? resumed.promptTokens / input.window : 0,
      refusedPastes,
    };
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A session whose saved context is 99% of the window, restored with `ollm snapshot restore`, then one message. */
async function resumeAtNinetyNinePercent(
  binary: OllmLaunch,
  args: readonly string[],
  env: Record<string, string>,
  folder: string,
  window: number,
  counter: TokenCounter,
): Promise<void> {
  const sessionId = 'resumed-at-99';
  const messages: Message[] = [];
  for (let index = 0; counter.countMessages(messages) < window * 0.99; index += 1) {
    const role = index % 2 === 0 ? 'user' : 'assistant';
    messages.push({
      id: `m${index}`,
      role,
      parts: [{ type: 'text', text: wordsOfTokens(Math.floor(window * 0.05), 100 + index, counter) }],
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    });
  }
  if (messages.at(-1)?.role === 'user') messages.pop();
  const snapshot = new SnapshotStore({ home: env['OLLM_HOME']! }).create({
    sessionId,
    automatic: false,
    context: { systemPrompt: '', messages, compressionCount: 0 },
    tokenCount: counter.countMessages(messages),
    messageCount: messages.length,
    checkpointCount: 0,
    metadata: { reason: 'chat-window scenario' },
  });
  await runToEnd(binary, ['snapshot', 'restore', snapshot.id], env, folder);
  const chat = new ScriptedChat(binary, [...args, '--session', sessionId], env, folder);
  chat.send('one more question after the resume');
  await chat.waitForStatusLines(2);
  await chat.end();
}

function runToEnd(binary: OllmLaunch, args: readonly string[], env: Record<string, string>, cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArguments(binary, args), { cwd, env: { PATH: process.env['PATH'], ...env }, stdio: 'ignore' });
    child.on('close', resolve);
  });
}
