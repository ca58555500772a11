import type { Command } from 'commander';
import { globalOptions, type CommandContext } from '../command-context.js';
import { renderTable } from '../output/render-table.js';
import { loadProviders } from '../plugins.js';
import { defineCommand } from './define-command.js';

interface ProvidersOptions {
  readonly json?: boolean;
}

/** `ollm providers`: named and described by the dispatcher (run-cli.ts). */
export const providersCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .option('--json', 'print the list as JSON')
    .addHelpText(
      'after',
      `
Plugins are packages with the keyword "ollm-context-provider" among the declared dependencies
of the nearest package.json, of ollm itself, and of the enclosing workspace (never a disk scan).
A plugin that fails to load is a warning on stderr; the others still load.

Examples:
  $ ollm providers
  $ ollm providers --json`,
    )
    .action(async (options: ProvidersOptions) => {
      const { io } = context;
      const { registry, report } = await loadProviders({
        io,
        usePlugins: globalOptions(command).plugins,
        ...(context.registry ? { registry: context.registry } : {}),
      });
      const providers = registry.list().map(({ provider, source }) => ({
        name: provider.name,
        package: source,
        description: provider.description ?? '',
        usesModel: provider.usesModel === true,
      }));
      if (options.json) {
        const warnings = report.warnings.map((warning) => ({ package: warning.packageName, path: warning.path, message: warning.message }));
        io.stdout.write(`${JSON.stringify({ providers, warnings }, null, 2)}\n`);
        return;
      }
      if (providers.length === 0) {
        const hint = globalOptions(command).plugins ? 'install a plugin such as @ollm/plugin-trim' : 'plugins are off (--no-plugins)';
        io.stdout.write(`No context providers: ${hint}.\n`);
        return;
      }
      const rows = [['name', 'package', 'description'], ...providers.map((entry) => [entry.name, entry.package, entry.description])];
      io.stdout.write(`${renderTable(rows)}\n`);
    });
});
