import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchConversation } from './fixture-set.js';
import { REPOSITORY_ROOT } from './fixture-set.js';

interface OpenAIMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/**
 * A SWE-agent trajectory scaled `factor` times as an OpenAI chat file: the system prompt and task
 * once, then its turns repeated with fresh tool call ids (the `exit` patch and `extra` dropped).
 */
export function scaledOpenAIConversation(conversation: BenchConversation, factor: number): OpenAIMessage[] {
  const source = (conversation.source as { messages: (OpenAIMessage & { extra?: unknown })[] }).messages;
  const plain = source
    .filter((message) => message.role !== 'exit')
    .map(({ role, content, name, tool_calls, tool_call_id }): OpenAIMessage => ({
      role,
      content: content ?? null,
      ...(name ? { name } : {}),
      ...(tool_calls ? { tool_calls } : {}),
      ...(tool_call_id ? { tool_call_id } : {}),
    }));
  const head = plain.filter((message) => message.role === 'system' || message.role === 'user').slice(0, 2);
  const turns = plain.slice(head.length);
  const scaled: OpenAIMessage[] = [...head];
  for (let copy = 0; copy < factor; copy += 1) {
    for (const message of turns) {
      scaled.push({
        ...message,
        ...(message.tool_calls ? { tool_calls: message.tool_calls.map((call) => ({ ...call, id: `${call.id}-copy${copy}` })) } : {}),
        ...(message.tool_call_id ? { tool_call_id: `${message.tool_call_id}-copy${copy}` } : {}),
      });
    }
  }
  return scaled;
}

export interface CompactMemoryResult {
  readonly source: string;
  readonly factor: number;
  readonly messages: number;
  readonly fileMegabytes: number;
  readonly command: string;
  /** Peak resident set size of the `ollm compact` process. */
  readonly maxRssMegabytes?: number;
  readonly wallSeconds: number;
  readonly exitCode: number | null;
  /** How max RSS was read. */
  readonly method: string;
  readonly stderr?: string;
}

/** Runs `ollm compact` on the scaled file under `/usr/bin/time -v` and reads its peak RSS. */
export function measureCompactMemory(conversation: BenchConversation, factor: number): CompactMemoryResult {
  const folder = mkdtempSync(join(tmpdir(), 'ollm-bench-compact-'));
  try {
    const input = join(folder, `${conversation.id}.x${factor}.json`);
    const messages = scaledOpenAIConversation(conversation, factor);
    writeFileSync(input, JSON.stringify(messages));
    const bin = join(REPOSITORY_ROOT, 'apps', 'cli', 'dist', 'bin.js');
    const cliArguments = [
      bin,
      'compact',
      input,
      '--provider',
      'mask,code-aware,trim',
      '--limit',
      '50%',
      '--out',
      join(folder, 'out.json'),
      '--logdir',
      join(folder, 'logdir'),
    ];
    const command = `node apps/cli/dist/bin.js compact ${conversation.id}.x${factor}.json --provider mask,code-aware,trim --limit 50% --out …`;
    const environment = { ...process.env, OLLM_HOME: join(folder, 'home') };
    const started = process.hrtime.bigint();
    // GNU time reports the child's peak RSS as the kernel measured it; without it, no figure.
    const useTime = existsSync('/usr/bin/time');
    const run = useTime
      ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...cliArguments], {
          cwd: folder,
          env: environment,
          encoding: 'utf8',
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      : spawnSync(process.execPath, cliArguments, { cwd: folder, env: environment, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const kilobytes = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1];
    const maxRssMegabytes = kilobytes ? Number(kilobytes) / 1024 : undefined;
    const exitCode = run.status;
    const failed = exitCode !== 0;
    return {
      source: conversation.file,
      factor,
      messages: messages.length,
      fileMegabytes: statSync(input).size / 2 ** 20,
      command,
      ...(maxRssMegabytes !== undefined ? { maxRssMegabytes } : {}),
      wallSeconds,
      exitCode,
      method: useTime ? '/usr/bin/time -v (Maximum resident set size)' : 'not measured (/usr/bin/time missing)',
      ...(failed ? { stderr: run.stderr.slice(-2000) } : {}),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
