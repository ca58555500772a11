import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, isMessageShapeRuleSet, RECOVERY_FOLDER, type Logger, type MessageShapeRuleSet, type TokenEncoding } from '@ollm/core';
import { loadConfig } from '@ollm/runtime';
import { serializeTranscript, writeTranscript, TRANSCRIPT_FORMATS } from '@ollm/transcripts';
import type { CliIo } from '../cli-io.js';
import { globalOptions, type CommandContext } from '../command-context.js';
import { formatCompactSummary } from '../compact/compact-summary.js';
import { compactTranscript } from '../compact/compact-transcript.js';
import { buildCompactionReport } from '../compact/compaction-report.js';
import { outWriteError } from '../compact/out-write-error.js';
import { displayPath, oneLine } from '../exit-codes.js';
import { colorsFor } from '../output/colors.js';
import { startSpinner } from '../output/progress-spinner.js';
import { modelApiFromFlags } from '../model/model-api-from-flags.js';
import { resolveModelSettings } from '../model/resolve-model-settings.js';
import { checkServerUrl, parseTimeoutSeconds } from '../model/server-url.js';
import { DEFAULT_LIMIT, parseLimit } from '../parse-limit.js';
import { resolveLogdir } from '../ollm-home.js';
import { loadProviders } from '../plugins.js';
import { collectProviderOption, parseProviderOptionFlags, unusedProviderOptions } from '../provider-options.js';
import { readInputTranscript, selectConversations } from '../read-input.js';
import { STANDARD_STREAM, STANDARD_INPUT_NAME } from '../read-standard-input.js';
import { defineCommand } from './define-command.js';
import { drawsOnTerminal } from '../output/terminal.js';

interface CompactOptions {
  readonly provider: string;
  readonly limit?: string;
  readonly logdir?: string;
  readonly out?: string;
  readonly format?: string;
  readonly json?: boolean;
  readonly conversation?: string;
  readonly encoding: string;
  readonly model?: string;
  readonly host?: string;
  readonly baseUrl?: string;
  readonly timeout?: string;
  readonly api?: string;
  readonly providerOption?: readonly string[];
  readonly shape?: string;
  readonly inPlace?: boolean;
}

/** Formats whose consumers apply chat templates or the Anthropic rules: alternating turns, a user message first. */
const STRICT_FORMATS: ReadonlySet<string> = new Set(['anthropic', 'ollama']);

/** True when both paths name one file (through symlinks too); a path that does not exist yet is compared as written. */
function samePath(a: string, b: string): boolean {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  return real(a) === real(b);
}

/** `--shape`, else the format's: strict for Anthropic and Ollama files, the OpenAI API's rules for the rest. */
export function shapeFor(format: string, flag: string | undefined): MessageShapeRuleSet {
  if (flag === undefined) return STRICT_FORMATS.has(format) ? 'strict' : 'openai';
  if (!isMessageShapeRuleSet(flag)) throw new InvalidArgumentError({ argument: 'shape', message: `Unknown --shape "${flag}". Shapes: strict, openai.` });
  return flag;
}

/** `ollm compact`: named and described by the dispatcher (run-cli.ts). */
export const compactCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument('<file>', 'transcript file (format detected), or - to read it from stdin')
    .option('--provider <name>', 'provider name, or a comma list run as a pipeline (mask,trim)', 'fold')
    .option('--limit <tokens>', 'target size: tokens (8000) or a share of each conversation (50%)', '50%')
    .option('--logdir <dir>', 'where removed content is saved, as <dir>/removed/<sha256>.txt (default: $OLLM_HOME or ~/.ollm)')
    .option('--out <file>', 'write the compacted transcript here (atomically) instead of stdout; - is stdout')
    .option('--format <format>', `read as this format instead of detecting it (${TRANSCRIPT_FORMATS.join(', ')}); output uses the same format`)
    .option('--json', 'print a JSON report; without --out the transcript is not written (dry run)')
    .option('--conversation <id>', 'compact only this conversation of a multi-conversation file (the others are kept)')
    .option('--encoding <encoding>', 'BPE encoding to count with (o200k_base, cl100k_base)', 'o200k_base')
    .option('--model <name>', 'model for model-based providers (summarize, goal-aware), e.g. qwen2.5:7b')
    .option('--api <api>', 'model server protocol: ollama or openai (default: ollama, openai with --base-url)')
    .option('--host <url>', 'Ollama host (default: $OLLM_HOST or http://127.0.0.1:11434)')
    .option(
      '--base-url <url>',
      'OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 (implies --api openai; default: $OPENAI_BASE_URL; key: $OPENAI_API_KEY)',
    )
    .option('--timeout <seconds>', 'how long one model call may take, retries included (default: config timeout, else 300)')
    .option(
      '--provider-option <provider.key=value>',
      "a provider's own option, over config providerOptions (repeatable; the value is JSON or text), e.g. trim.previewLines=0",
      collectProviderOption,
    )
    .option('--in-place', 'allow --out to name the input file itself (it is replaced atomically once the compaction succeeded)')
    .option(
      '--shape <rules>',
      'message-shape rules the output must keep: strict (alternating turns, a user message first: chat templates, Anthropic) or openai (default: strict for anthropic and ollama files, else openai)',
    )
    .addHelpText(
      'after',
      `
Every provider output is validated (roles, order, timestamps, tool pairing, system and user
messages unchanged, never larger, and the message shape of --shape, broken no more than the input
was); an output that breaks a rule exits 1 and nothing is written.
Removed content is saved byte-for-byte and can be printed with \`ollm recover\`.
Each provider's own options come from the config's providerOptions (the only config key compact
reads) and --provider-option, which wins key by key.

Output: without --out (or with --out -) the transcript goes to stdout and a one-line summary to
stderr, so a pipe gets only the transcript. - as the file reads the transcript from stdin (format
detected, or --format; errors name <stdin>); --in-place needs a file.
--json prints {provider, tokensBefore, tokensAfter, limit, sourceDigest, coveredThrough, removed,
limitations, timeMs (counting and compacting; reading and writing excluded)}; for files with
several conversations, totals plus a "conversations" list.
Without --out it is a dry run (the transcript is not written); --json with --out - is refused
(stdout holds the transcript; use --out FILE --json).

Examples:
  $ ollm compact session.traj.json > small.traj.json
  $ cat run.traj.json | ollm compact - --limit 50% --out - > small.json
  $ gzip -dc run.traj.json.gz | ollm compact - --provider mask,trim --limit 8000 | gzip > small.traj.json.gz
  $ ollm compact session.traj.json --provider mask,trim --limit 8000 --out small.traj.json
  $ ollm compact gpt-4o-airline.json --limit 40% --json --out small.json
  $ ollm compact session.traj.json --provider trim,summarize --model qwen2.5:7b
  $ ollm compact session.traj.json --provider-option trim.previewLines=0 --provider-option trim.maxToolResultTokens=500`,
    )
    .action(async (file: string, options: CompactOptions) => {
      const { io } = context;
      const limit = options.limit === undefined ? DEFAULT_LIMIT : parseLimit(options.limit);
      if (!limit) {
        throw new InvalidArgumentError({ argument: 'limit', message: `Invalid --limit "${options.limit}": use a token count (8000) or a share (50%).` });
      }
      if (options.encoding !== 'o200k_base' && options.encoding !== 'cl100k_base') {
        throw new InvalidArgumentError({ argument: 'encoding', message: `Unknown encoding "${options.encoding}". Encodings: o200k_base, cl100k_base.` });
      }
      // As the chat: --base-url alone means --api openai.
      const api = modelApiFromFlags(options) ?? 'ollama';
      if (options.shape !== undefined) shapeFor('', options.shape);
      const fromStandardInput = file === STANDARD_STREAM;
      const toStandardOutput = options.out === undefined || options.out === STANDARD_STREAM;
      if (fromStandardInput && options.inPlace) {
        throw new InvalidArgumentError({
          argument: 'in-place',
          message: '--in-place replaces the input file, and - reads stdin: write the result with --out FILE, or to stdout.',
        });
      }
      if (options.json && options.out === STANDARD_STREAM) {
        throw new InvalidArgumentError({
          argument: 'json',
          message:
            '--json with --out -: stdout holds the transcript, so the report has no stream of its own. Use --out FILE --json, or drop --json for the summary on stderr.',
        });
      }
      if (!toStandardOutput && !options.inPlace && !fromStandardInput && samePath(resolve(io.cwd, file), resolve(io.cwd, options.out!))) {
        throw new InvalidArgumentError({
          argument: 'out',
          message: `--out ${options.out} is the input file: it would be replaced by its compacted version. Write elsewhere, or pass --in-place to replace it.`,
        });
      }
      // Before the transcript is read: a bad option or config value is reported first.
      const flagOptions = options.providerOption && options.providerOption.length > 0 ? parseProviderOptionFlags(options.providerOption) : undefined;
      const { config } = await loadConfig({
        cwd: io.cwd,
        env: io.env as NodeJS.ProcessEnv,
        ...(flagOptions ? { overrides: { providerOptions: flagOptions } } : {}),
      });
      const timeoutSeconds = options.timeout !== undefined ? parseTimeoutSeconds(options.timeout) : config.timeout;
      if (options.host !== undefined) checkServerUrl('host', options.host);
      if (options.baseUrl !== undefined) checkServerUrl('base-url', options.baseUrl);
      const transcript = await readInputTranscript(io, file, options.format, { standardInput: true });
      const conversations = selectConversations(transcript, options.conversation);
      const { registry, available } = await loadProviders({
        io,
        usePlugins: globalOptions(command).plugins,
        provider: options.provider,
        ...(context.registry ? { registry: context.registry } : {}),
      });
      const provider = registry.get(options.provider);
      for (const warning of unusedProviderOptions(config.providerOptions, available)) io.stderr.write(`ollm: ${colorsFor(io).yellow('warning:')} ${warning}\n`);
      const logdir = resolveLogdir(io, options.logdir);
      // The model clients (the openai and ollama packages) load only when a model is asked for.
      const model = options.model
        ? (await import('../model/create-language-model.js')).createLanguageModel(
            resolveModelSettings(
              {
                api,
                model: options.model,
                ...(options.host ? { host: checkServerUrl('host', options.host) } : {}),
                ...(options.baseUrl ? { baseURL: checkServerUrl('base-url', options.baseUrl) } : {}),
                ...(timeoutSeconds !== undefined ? { timeoutMs: Math.round(timeoutSeconds * 1000) } : {}),
              },
              io.env,
            ),
          )
        : undefined;
      const spinner = startSpinner(io, `${provider.name}: compacting`);
      let compacted;
      try {
        compacted = await compactTranscript({
          transcript,
          conversations,
          provider,
          limit,
          logdir,
          encoding: options.encoding as TokenEncoding,
          providerOptions: config.providerOptions,
          shape: shapeFor(transcript.format, options.shape),
          logger: createLogger(io, provider.name, globalOptions(command).debug),
          ...(io.signal ? { abortSignal: io.signal } : {}),
          ...(model ? { model } : {}),
          onConversation: (position, total) => {
            if (total > 1) spinner.update(`${provider.name}: conversation ${position + 1}/${total}`);
          },
        });
      } finally {
        spinner.stop();
      }

      const out = toStandardOutput ? null : resolve(io.cwd, options.out!);
      if (out) {
        try {
          await writeTranscript(out, compacted.transcript);
        } catch (error) {
          throw outWriteError(options.out!, error);
        }
      } else if (!options.json) io.stdout.write(serializeTranscript(compacted.transcript));

      if (options.json) {
        const report = buildCompactionReport(
          {
            file: fromStandardInput ? STANDARD_INPUT_NAME : file,
            format: transcript.format,
            provider: provider.name,
            out,
            multiple: transcript.conversations.length > 1,
          },
          compacted.reports,
        );
        io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const summary = formatCompactSummary({
        provider: provider.name,
        reports: compacted.reports,
        savedUnder: homeRelative(io, join(logdir, RECOVERY_FOLDER)),
        ...(out ? { written: displayPath(out, io.cwd) } : {}),
      });
      io.stderr.write(`${summary}\n`);
    });
});

/** Provider warnings always reach stderr; info and debug only with --debug. */
function createLogger(io: CliIo, provider: string, debug: boolean): Logger {
  // On a terminal the spinner owns the current line: clear it so the message starts clean.
  const clear = drawsOnTerminal(io) ? '\r\x1b[2K' : '';
  const write = (level: string, message: string): void => {
    io.stderr.write(`${clear}ollm: ${provider}: ${level}: ${oneLine(message)}\n`);
  };
  return {
    debug: (message) => {
      if (debug) write('debug', message);
    },
    info: (message) => {
      if (debug) write('info', message);
    },
    warn: (message) => write('warning', message),
  };
}

function homeRelative(io: CliIo, path: string): string {
  const home = io.env['HOME'];
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
