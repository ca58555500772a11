import { join } from 'node:path';
import type { BenchConversation } from '../fixture-set.js';
import { createBenchRegistry } from '../strategies.js';
import { measureCliStartup } from './cli-startup-workload.js';
import { ALL_SPEED_CONTENDERS, CODE_PARSE_CONTENDER, OLLM_SPEED_PIPELINES, loadContenders } from './contender-catalog.js';
import { measureProcesses, type ProcessTranscript } from './process-workload.js';
import { measureHostileInputs } from './hostile-input-workload.js';
import { nestedJsonInput, repeatedCharacterInput } from './hostile-inputs.js';
import { measureInProcess, type SpeedConversation } from './in-process-workload.js';
import { measureLiveAgent } from './live-agent-workload.js';
import { loadOllmProvider } from './ollm-contender.js';
import { measurePinnedOverflow } from './pinned-overflow-workload.js';
import { measureRuntimeTurns } from './runtime-turn-workload.js';
import { measureScaling } from './scaling-workload.js';
import { freshCounter } from './speed-contender.js';
import type { SpeedMode } from './speed-mode.js';
import { SPEED_PARTS, type SpeedPart, type SpeedReport } from './speed-report.js';

/** The pipeline a live session's runtime compacts with in the runtime workloads (rule-based, the CLI's default). */
const RUNTIME_PIPELINE = 'fold';

export interface SpeedInput {
  readonly conversations: readonly BenchConversation[];
  /** The fixtures folder (the cold processes and the CLI read the transcript files). */
  readonly folder: string;
  readonly progress: (text: string) => void;
  /** Default: every part. */
  readonly parts?: ReadonlySet<SpeedPart>;
}

/** Runs the speed section's workloads (speed/): the same o200k counter for every contender, interleaved, medians. */
export async function runSpeedWorkloads(mode: SpeedMode, input: SpeedInput): Promise<SpeedReport | { readonly skipped: string }> {
  const parts = input.parts ?? new Set(SPEED_PARTS);
  const swe = input.conversations.filter((conversation) => conversation.kind === 'swe-agent');
  if (swe.length === 0) return { skipped: 'no SWE-agent transcripts' };
  const counter = freshCounter();
  const conversations: SpeedConversation[] = swe.map((conversation) => ({
    id: conversation.id,
    messages: conversation.messages,
    tokens: counter.countMessages(conversation.messages),
  }));
  const files = new Map(swe.map((conversation) => [conversation.id, join(input.folder, conversation.file)] as const));
  const contenders = await loadContenders(ALL_SPEED_CONTENDERS);
  // Contenders of the new processes only (the code parse): listed for their labels.
  const processOnly = await loadContenders(mode.processContenders.filter((name) => !ALL_SPEED_CONTENDERS.includes(name)));
  const { progress } = input;
  const report: { -readonly [Key in keyof SpeedReport]: SpeedReport[Key] } = {
    budget: mode.budget,
    conversations: conversations.map((conversation) => ({ id: conversation.id, tokens: conversation.tokens, messages: conversation.messages.length })),
    contenders: [...contenders, ...processOnly].map((contender) => ({ name: contender.name, label: contender.label, family: contender.family })),
  };
  const largestFirst = [...conversations].sort((a, b) => b.tokens - a.tokens);

  if (parts.has('in-process')) {
    progress(`speed: ${conversations.length} transcripts x ${contenders.length} contenders, warm and fresh, ${mode.rounds} interleaved rounds`);
    const cases = await measureInProcess(conversations, contenders, {
      rounds: mode.rounds,
      costlyRounds: mode.costlyRounds,
      budget: mode.budget,
      onConversation: (done, total) => done % 4 === 0 && progress(`speed in-process ${done}/${total}`),
    });
    report.inProcess = { rounds: mode.rounds, costlyRounds: mode.costlyRounds, cases };
  }
  if (parts.has('processes')) {
    const chosen = largestFirst.slice(0, mode.processTranscripts ?? largestFirst.length);
    const asProcessTranscript = (conversation: SpeedConversation): ProcessTranscript => ({
      id: conversation.id,
      path: files.get(conversation.id)!,
      format: 'swe-agent',
      tokens: conversation.tokens,
    });
    // A fresh process compacts the smallest other transcript first.
    const smallestFirst = [...conversations].sort((a, b) => a.tokens - b.tokens);
    const warmUpFor = (transcript: ProcessTranscript) =>
      asProcessTranscript(smallestFirst.find((conversation) => conversation.id !== transcript.id) ?? smallestFirst[0]!);
    progress(
      `speed: new processes (cold, and fresh after another transcript), ${chosen.length} transcripts x ${mode.processContenders.length} contenders x ${mode.processRounds} rounds`,
    );
    const cases = measureProcesses(chosen.map(asProcessTranscript), mode.processContenders, {
      budget: mode.budget,
      rounds: mode.processRounds,
      timeoutSeconds: mode.processTimeoutSeconds,
      warmUpFor,
      freshOnly: [CODE_PARSE_CONTENDER],
      onConversation: (done, total) => done % 4 === 0 && progress(`speed processes ${done}/${total}`),
    });
    report.processes = { cases };
  }
  if (parts.has('live-agent')) {
    progress(`speed: the live-agent case (one more turn), ${mode.liveRounds} rounds`);
    const pipelines = [];
    for (const name of OLLM_SPEED_PIPELINES) pipelines.push({ name, provider: await loadOllmProvider(name) });
    report.liveAgent = { rounds: mode.liveRounds, cases: await measureLiveAgent(conversations, pipelines, { rounds: mode.liveRounds, budget: mode.budget }) };
  }
  if (parts.has('scaling')) {
    const points = await measureScaling(input.conversations, contenders, {
      sizes: mode.scalingSizes,
      budget: mode.budget,
      roundsAt: (tokens) => (tokens >= mode.scalingLargeFrom ? mode.scalingLargeRounds : mode.scalingRounds),
      capMilliseconds: mode.scalingCapSeconds * 1000,
      onSize: (tokens, messages) => progress(`speed scaling: ${tokens.toLocaleString('en-US')} tokens (${messages.toLocaleString('en-US')} messages)`),
    });
    report.scaling = { capSeconds: mode.scalingCapSeconds, points };
  }
  if (parts.has('runtime')) {
    progress(`speed: the runtime's check per turn at ${mode.runtimeSizes.join(' / ')} active messages`);
    report.runtimeTurns = await measureRuntimeTurns(input.conversations, {
      sizes: mode.runtimeSizes,
      turns: mode.runtimeTurns,
      registry: createBenchRegistry(),
      pipeline: RUNTIME_PIPELINE,
    });
  }
  if (parts.has('pinned')) {
    progress(`speed: pinned messages over a ${mode.pinnedContextSize}-token window, ${mode.pinnedTurns} turns`);
    report.pinnedOverflow = await measurePinnedOverflow(input.conversations, {
      turns: mode.pinnedTurns,
      contextSize: mode.pinnedContextSize,
      registry: createBenchRegistry(),
      pipeline: RUNTIME_PIPELINE,
    });
  }
  if (parts.has('cli')) {
    const largest = largestFirst[0]!;
    progress(`speed: CLI start-up (ollm compact of ${largest.id}), ${mode.cliRounds} rounds`);
    report.cliStartup = measureCliStartup(
      { id: largest.id, path: files.get(largest.id)!, tokens: largest.tokens },
      ['trim', undefined, 'mask,code-aware,trim'],
      mode.cliRounds,
    );
  }
  if (parts.has('hostile')) {
    const inputs = [...mode.hostileRepeated.map(repeatedCharacterInput), ...mode.hostileNestedDepths.map(nestedJsonInput)];
    report.hostile = measureHostileInputs(inputs, mode.hostileTimeoutSeconds, (name, tool) => progress(`speed hostile input: ${name}, ${tool}`));
  }
  return report;
}
