import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import { renderTable } from '../output/render-table.js';

interface ConfigOptions {
  readonly json?: boolean;
}

/** Shown instead of the API key: whether it is set is all anyone needs to see. */
const SECRET_SHOWN_AS = '(set)';

export function registerConfigCommand(program: Command, context: CommandContext): void {
  program
    .command('config')
    .description('Print the effective configuration and where each value came from.')
    .option('--json', 'print {config, sources, files} as JSON')
    .addHelpText(
      'after',
      `
Precedence, lowest first: defaults < $OLLM_HOME/config.json|yaml < the project's config (found by
cosmiconfig, module "ollm": package.json "ollm" key, .ollmrc, .ollmrc.json|yaml|yml,
ollm.config.js|mjs|cjs|ts) < environment (OLLM_HOST, OLLM_MODEL, OPENAI_BASE_URL,
OPENAI_API_KEY, OLLM_HOME) < chat flags. The API key is never printed: it shows as (set).

Examples:
  $ ollm config
  $ ollm config --json`,
    )
    .action(async (options: ConfigOptions) => {
      const { io } = context;
      const { loadConfig } = await import('@ollm/runtime');
      const loaded = await loadConfig({ cwd: io.cwd, env: io.env as NodeJS.ProcessEnv });
      const { apiKey, ...rest } = loaded.config;
      const config = { ...rest, ...(apiKey !== undefined ? { apiKey: SECRET_SHOWN_AS } : {}) };
      if (options.json) {
        io.stdout.write(`${JSON.stringify({ config, sources: loaded.sources, files: loaded.files }, null, 2)}\n`);
        return;
      }
      const rows = flatten(config).map(([key, value]) => [key, value, loaded.sources[key] ?? '']);
      // Unset, the reply reserve is derived from the window: say so rather than leave it out.
      if (config.compression.replyReserve === undefined) rows.push(['compression.replyReserve', '(15% of the window)', 'default']);
      io.stdout.write(`${renderTable([['key', 'value', 'source'], ...rows])}\n`);
      io.stdout.write(loaded.files.length > 0 ? `\nFiles read: ${loaded.files.join(', ')}\n` : '\nNo config file found (defaults and environment only).\n');
    });
}

function flatten(value: object, prefix = ''): [string, string][] {
  const rows: [string, string][] = [];
  for (const [key, member] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (member !== null && typeof member === 'object' && !Array.isArray(member)) rows.push(...flatten(member as object, path));
    else rows.push([path, String(member)]);
  }
  return rows;
}
