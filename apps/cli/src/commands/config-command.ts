import type { Command } from 'commander';
import { loadConfig } from '@ollm/runtime';
import type { CommandContext } from '../command-context.js';
import { colorsFor } from '../output/colors.js';
import { renderTable } from '../output/render-table.js';
import { defineCommand } from './define-command.js';

interface ConfigOptions {
  readonly json?: boolean;
}

/** Shown instead of the API key: whether it is set is all anyone needs to see. */
const SECRET_SHOWN_AS = '(set)';

/** `ollm config`: named and described by the dispatcher (run-cli.ts). */
export const configCommand = defineCommand((command: Command, context: CommandContext) => {
  command
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
      const loaded = await loadConfig({ cwd: io.cwd, env: io.env as NodeJS.ProcessEnv });
      for (const warning of loaded.warnings) io.stderr.write(`ollm: ${colorsFor(io).yellow('warning:')} ${warning}\n`);
      const { apiKey, ...rest } = loaded.config;
      const config = { ...rest, ...(apiKey !== undefined ? { apiKey: SECRET_SHOWN_AS } : {}) };
      if (options.json) {
        io.stdout.write(`${JSON.stringify({ config, sources: loaded.sources, files: loaded.files }, null, 2)}\n`);
        return;
      }
      const rows = flatten(config).map(([key, value]) => [key, value, loaded.sources[key] ?? '']);
      // Unset, the reply reserve is derived from the window: say so rather than leave it out.
      if (config.compaction.replyReserve === undefined) rows.push(['compaction.replyReserve', '(15% of the window)', 'default']);
      io.stdout.write(`${renderTable([['key', 'value', 'source'], ...rows])}\n`);
      io.stdout.write(loaded.files.length > 0 ? `\nFiles read: ${loaded.files.join(', ')}\n` : '\nNo config file found (defaults and environment only).\n');
    });
});

function flatten(value: object, prefix = ''): [string, string][] {
  const rows: [string, string][] = [];
  for (const [key, member] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const isProviderOption = path.startsWith('providerOptions.') && prefix !== 'providerOptions';
    if (member !== null && typeof member === 'object' && !Array.isArray(member) && !isProviderOption) rows.push(...flatten(member as object, path));
    // A provider's option may hold an object or a list: shown as JSON, on its own row.
    else rows.push([path, typeof member === 'object' && member !== null ? JSON.stringify(member) : String(member)]);
  }
  return rows;
}
