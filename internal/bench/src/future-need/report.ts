import { resolve } from 'node:path';
import { allConversations, defaultFixtureFolder, loadFixtures, type BenchConversation, type FixtureKind, type FixtureSet } from '../fixture-set.js';
import { DEFAULT_BUDGETS, DEFAULT_CUTS, DEFAULT_STRATEGY_NAMES } from './defaults.js';
import { resolveStrategies } from './strategy-names.js';
import { summarizeFutureNeed, type FutureNeedSummary } from './summary.js';
import { runFutureNeed, type FutureNeedResult } from './workload.js';

/** What `pnpm bench` keeps of a future-need run (bench/results/*.json) and renders in docs/benchmarks.md. */
export interface FutureNeedReport extends FutureNeedResult {
  readonly fixtures: {
    readonly folder: string;
    readonly origin: FixtureSet['origin'];
    /** Conversations measured, per dataset. */
    readonly conversations: Readonly<Partial<Record<FixtureKind, number>>>;
  };
  readonly summaries: readonly FutureNeedSummary[];
}

export interface FutureNeedSettings {
  /** `--strategy` names: ollm pipelines or `ai-sdk`, `langchain`, `langchain-human`. */
  readonly strategies?: readonly string[];
  readonly budgets?: readonly number[];
  readonly cuts?: readonly number[];
  readonly onConversation?: (done: number, total: number, id: string) => void;
  /** Called with each plugin that failed to load, when a pipeline needed workspace discovery. */
  readonly onWarning?: (message: string) => void;
}

/** Runs the future-need workload on `conversations` and summarises it. */
export async function futureNeedReport(
  conversations: readonly BenchConversation[],
  fixtures: { readonly folder: string; readonly origin: FixtureSet['origin'] },
  settings: FutureNeedSettings = {},
): Promise<FutureNeedReport> {
  const { strategies, warnings } = await resolveStrategies(settings.strategies ?? DEFAULT_STRATEGY_NAMES);
  for (const warning of warnings) settings.onWarning?.(warning);
  const result = await runFutureNeed(conversations, strategies, {
    cuts: settings.cuts ?? DEFAULT_CUTS,
    budgets: settings.budgets ?? DEFAULT_BUDGETS,
    ...(settings.onConversation ? { onConversation: settings.onConversation } : {}),
  });
  const counts: Partial<Record<FixtureKind, number>> = {};
  for (const conversation of conversations) counts[conversation.kind] = (counts[conversation.kind] ?? 0) + 1;
  return { fixtures: { ...fixtures, conversations: counts }, ...result, summaries: summarizeFutureNeed(result) };
}

export interface MeasureFutureNeedOptions extends FutureNeedSettings {
  /** Default: ../shared/fixtures when it is there, else the repository's fixtures/. */
  readonly fixtures?: string;
  /** Keep at most this many SWE-agent trajectories (the smallest). */
  readonly maximumSweAgentFiles?: number;
  /** Also the tau-bench dialogs of the fixtures folder (default: SWE-agent only). */
  readonly tauBench?: boolean;
}

/** Loads the fixtures and runs the workload: the `future-need` command, and record-docs' block. */
export async function measureFutureNeed(options: MeasureFutureNeedOptions = {}): Promise<FutureNeedReport> {
  const location = options.fixtures ? { folder: resolve(options.fixtures), origin: 'given' as const } : defaultFixtureFolder();
  const set = await loadFixtures({
    ...location,
    ...(options.maximumSweAgentFiles !== undefined ? { maximumSweAgentFiles: options.maximumSweAgentFiles } : {}),
  });
  const conversations = allConversations(set).filter((conversation) => conversation.kind === 'swe-agent' || options.tauBench === true);
  if (conversations.length === 0) throw new Error(`No SWE-agent trajectories under ${location.folder}.`);
  return futureNeedReport(conversations, location, options);
}
