import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (tests resolve fixtures from it, so they pass on a fresh clone). */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A SWE-agent trajectory: 120 messages, 17,837 tokens (o200k_base) per its manifest. */
export const sweAgentFixture = fileURLToPath(new URL('../../../fixtures/swe-agent-django/django__django-11999.traj.json', import.meta.url));

/** A tau-bench file with several conversations. */
export const tauBenchFixture = fileURLToPath(new URL('../../../fixtures/tau-bench-airline/gpt-4o-airline.sample.json', import.meta.url));

export const fixturesPresent = existsSync(sweAgentFixture) && existsSync(tauBenchFixture);
