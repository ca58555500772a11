const VERBS = ['compute', 'render', 'parse', 'validate', 'collect', 'resolve', 'format', 'merge'];
const NOUNS = ['Invoice', 'Order', 'Ledger', 'Cart', 'Session', 'Report', 'Shipment', 'Account'];
/** Functions per file: about 300 tokens, so a 10-step loop fits the 4,096 window with the reply and the tool. */
const FUNCTIONS = 3;

/**
 * The source file `read_file` returns at step `index` of run `run`: about 300 tokens of code (three functions) whose
 * identifiers name both, so no text of one run is counted from a cache an earlier run filled.
 */
export function moduleText(run: number, index: number): string {
  const lines = [`// src/module-${index}.ts (run ${run})`, `import { helper${run}_${index} } from './shared/helper-${index % 7}';`, ''];
  for (let k = 0; k < FUNCTIONS; k += 1) {
    const verb = VERBS[(index + k) % VERBS.length]!;
    const noun = NOUNS[(index * 3 + k) % NOUNS.length]!;
    const name = `${verb}${noun}${run}x${index}x${k}`;
    lines.push(
      `export function ${name}(items: readonly ${noun}Item[], limit = ${index * 10 + k}): number {`,
      `  let total = 0;`,
      `  for (const item of items) total += item.amount * item.quantity + helper${run}_${index}(item.id, '${noun.toLowerCase()}-${k}');`,
      `  if (total > limit) throw new RangeError('${name}: total ' + total + ' over ' + limit);`,
      `  return total;`,
      `}`,
      '',
    );
  }
  return lines.join('\n');
}

/** The path the model asks for at step `index` (0-based). */
export function modulePath(index: number): string {
  return `src/module-${index}.ts`;
}

/** The module index a `read_file` path names (0 when it names none). */
export function moduleIndex(path: string): number {
  return Number(/module-(\d+)/.exec(path)?.[1] ?? 0);
}

/**
 * One agent run: the model calls `read_file` once a step until `steps` results came back, then
 * answers. The tool counts what it returned; the fake server reads the count to decide.
 */
export class AgentRun {
  readonly system: string;
  readonly task: string;
  #executed = 0;

  constructor(
    readonly id: number,
    readonly steps: number,
  ) {
    this.system = `You are a coding agent (run ${id}). Read the files you need with read_file, then answer.`;
    this.task = `Run ${id}: read src/module-0.ts to src/module-${steps - 1}.ts and tell me what they define.`;
  }

  /** Tool results returned so far. */
  get executed(): number {
    return this.#executed;
  }

  /** What `read_file` returns for `path`. */
  readFile(path: string): string {
    this.#executed += 1;
    return moduleText(this.id, moduleIndex(path));
  }

  /** The model's next call: another file while results are missing, else none (it answers). */
  nextCall(): { readonly name: 'read_file'; readonly arguments: { readonly path: string } } | undefined {
    return this.#executed < this.steps ? { name: 'read_file', arguments: { path: modulePath(this.#executed) } } : undefined;
  }

  /** The model's answer once every result is in. */
  answer(): string | undefined {
    return this.#executed < this.steps ? undefined : `Read all ${this.steps} modules.`;
  }
}
