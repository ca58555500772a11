import { DemoUser, runOllm } from './run-ollm.js';

export const SWE_AGENT_FIXTURE = 'fixtures/swe-agent-django/django__django-11999.traj.json';
export const TAU_BENCH_FIXTURE = 'fixtures/tau-bench-airline/gpt-4o-airline.sample.json';

/** `$ ollm …` and what it printed, as a user at /home/me in ~/work would see it. */
async function session(
  binary: string,
  commands: readonly (readonly string[])[],
  show: (args: readonly string[], output: string) => string = (_, output) => output.trimEnd(),
): Promise<string> {
  const parts: string[] = [];
  for (const args of commands) {
    // A fresh home each time: every command saves its removed pieces as if run first.
    const user = new DemoUser();
    try {
      const result = await runOllm(binary, args, user);
      if (result.exitCode !== 0) throw new Error(`ollm ${args.join(' ')} exited ${result.exitCode}:\n${result.output}`);
      parts.push(`$ ollm ${args.join(' ')}`, show(args, user.clean(result.output)));
    } finally {
      user.remove();
    }
  }
  return parts.join('\n');
}

/** The one-line summaries of `ollm compact` on the shipped fixtures. */
export function recordCompactSummaries(binary: string): Promise<string> {
  return session(binary, [
    ['compact', SWE_AGENT_FIXTURE, '--out', 'small.traj.json'],
    ['compact', TAU_BENCH_FIXTURE, '--provider', 'mask,trim', '--out', 'small.json'],
  ]);
}

export function recordStats(binary: string): Promise<string> {
  return session(binary, [['stats', SWE_AGENT_FIXTURE]]);
}

/** The digests; the tau-bench file's 20 lines are cut to the first two. */
export function recordDigests(binary: string): Promise<string> {
  return session(
    binary,
    [
      ['digest', SWE_AGENT_FIXTURE],
      ['digest', TAU_BENCH_FIXTURE],
    ],
    (_, output) => {
      const lines = output.trimEnd().split('\n');
      return lines.length > 2 ? [...lines.slice(0, 2), '...'].join('\n') : lines.join('\n');
    },
  );
}

type Json = Record<string, unknown>;

/**
 * The `--json` report of a one-conversation file (`--limit 8000 --out small.traj.json`), with
 * `removed` cut to its first entry and `timeMs`, which differs on every run, shown as `…`.
 */
export async function recordJsonReport(binary: string): Promise<string> {
  const user = new DemoUser();
  try {
    const result = await runOllm(
      binary,
      ['compact', SWE_AGENT_FIXTURE, '--provider', 'mask,trim', '--limit', '8000', '--json', '--out', 'small.traj.json'],
      user,
    );
    if (result.exitCode !== 0) throw new Error(`ollm compact --json exited ${result.exitCode}:\n${result.output}`);
    const report = JSON.parse(user.clean(result.output)) as Json;
    return renderReport(report, '  ');
  } finally {
    user.remove();
  }
}

/** The `--json` report of the tau-bench file (a dry run with trim): the totals and the first conversation. */
export async function recordMultiJsonReport(binary: string): Promise<string> {
  const user = new DemoUser();
  try {
    const result = await runOllm(binary, ['compact', TAU_BENCH_FIXTURE, '--json'], user);
    if (result.exitCode !== 0) throw new Error(`ollm compact --json exited ${result.exitCode}:\n${result.output}`);
    const report = JSON.parse(user.clean(result.output)) as Json;
    return renderReport(report, '  ');
  } finally {
    user.remove();
  }
}

const short = (sha: string) => `${sha.slice(0, 8)}…`;

function renderReport(report: Json, indent: string): string {
  const lines = Object.entries(report).map(([key, value]) => {
    if (key === 'timeMs') return `${indent}"timeMs": …`;
    if (key === 'removed' && Array.isArray(value)) return `${indent}"removed": ${renderRemoved(value as Json[], indent)}`;
    if (key === 'conversations' && Array.isArray(value)) return `${indent}"conversations": ${renderConversations(value as Json[], indent)}`;
    return `${indent}${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  return ['{', lines.join(',\n'), '}'].join('\n');
}

function renderRemoved(removed: readonly Json[], indent: string): string {
  const [first] = removed;
  if (!first) return '[]';
  const sha = String(first['sha256']);
  const path = typeof first['path'] === 'string' ? String(first['path']).split(sha).join(short(sha)) : undefined;
  const entry = `{ "messageId": ${JSON.stringify(first['messageId'])}, "kind": ${JSON.stringify(first['kind'])}, "sha256": "${short(sha)}", "originalTokens": ${JSON.stringify(first['originalTokens'])}${path ? `,\n${indent}    "path": ${JSON.stringify(path)}` : ''} }`;
  const more = removed.length > 1 ? `,\n${indent}  … ${removed.length - 1} more` : '';
  return `[\n${indent}  ${entry}${more}\n${indent}]`;
}

function renderConversations(conversations: readonly Json[], indent: string): string {
  const [first] = conversations;
  if (!first) return '[]';
  const fields = Object.entries(first).map(([key, value]) => {
    if (key === 'timeMs') return `"timeMs": …`;
    if (key === 'sourceDigest') return `"sourceDigest": "${short(String(value))}"`;
    if (key === 'removed' || key === 'limitations') return `${JSON.stringify(key)}: [ … ]`;
    return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  const half = Math.ceil(fields.length / 2);
  const entry = `{ ${fields.slice(0, half).join(', ')},\n${indent}    ${fields.slice(half).join(', ')} }`;
  const more = conversations.length > 1 ? `,\n${indent}  … ${conversations.length - 1} more` : '';
  return `[\n${indent}  ${entry}${more}\n${indent}]`;
}
