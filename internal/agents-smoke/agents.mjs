// How each coding agent is run headless against a base URL, at its default settings: the
// variables, flags and generated config files it needs (read from each agent's --help, README
// and docs in its npm package). `root` is the server's origin (no /v1).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MODEL = 'local-coder';

const quiet = {
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_SHARE: '1',
  PI_SKIP_VERSION_CHECK: '1',
  PI_OFFLINE: '1',
  CLINE_LOG_ENABLED: '0',
  NO_UPDATE_NOTIFIER: '1',
  NO_COLOR: '1',
};

/**
 * Each agent: `packageName` (npm), `binary`, and `command({ root, home, workdir, prompt, window, ownCompaction })`
 * → { args, env, api } where `api` names the upstream API it speaks (for the table).
 * `ownCompaction`: the agent's own setting for a window (the 40-step comparison), when it has one.
 */
export const AGENTS = {
  claude: {
    packageName: '@anthropic-ai/claude-code',
    binary: 'claude',
    api: '/v1/messages',
    ownCompactionSetting: (window) => `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${window}`,
    // Claude Code refuses --dangerously-skip-permissions as root outside a sandbox: IS_SANDBOX=1.
    launchArgs: ({ prompt }) => ({ args: ['-p', prompt, '--dangerously-skip-permissions'], env: { IS_SANDBOX: '1' } }),
    command: ({ root, prompt, window, ownCompaction }) => ({
      args: ['-p', prompt, '--dangerously-skip-permissions', '--model', MODEL],
      env: {
        ANTHROPIC_BASE_URL: root,
        ANTHROPIC_AUTH_TOKEN: 'ollm-local',
        IS_SANDBOX: '1',
        ...(ownCompaction ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(window) } : {}),
      },
    }),
  },
  codex: {
    packageName: '@openai/codex',
    binary: 'codex',
    api: '/v1/responses',
    ownCompactionSetting: (window) => `-c model_context_window=${window}`,
    launchArgs: ({ home, prompt }) => ({
      args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
      env: { CODEX_HOME: join(home, '.codex') },
    }),
    command: ({ root, home, prompt, window, ownCompaction }) => {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      const config = [
        'model_provider = "ollm"',
        `model = "${MODEL}"`,
        ...(ownCompaction ? [`model_context_window = ${window}`] : []),
        '[model_providers.ollm]',
        'name = "ollm"',
        `base_url = "${root}/v1"`,
        'wire_api = "responses"',
        '',
      ].join('\n');
      writeFileSync(join(codexHome, 'config.toml'), config);
      return {
        args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
        env: { CODEX_HOME: codexHome },
      };
    },
  },
  opencode: {
    packageName: 'opencode-ai',
    binary: 'opencode',
    api: '/v1/chat/completions',
    ownCompactionSetting: (window) => `provider.ollm.models.${MODEL}.limit.context=${window}`,
    launchArgs: ({ prompt }) => ({ args: ['run', prompt], env: {} }),
    command: ({ root, home, prompt, window, ownCompaction }) => {
      const path = join(home, 'opencode.json');
      writeFileSync(
        path,
        JSON.stringify(
          {
            $schema: 'https://opencode.ai/config.json',
            autoupdate: false,
            share: 'disabled',
            provider: {
              ollm: {
                npm: '@ai-sdk/openai-compatible',
                name: 'ollm',
                options: { baseURL: `${root}/v1`, apiKey: 'ollm-local' },
                models: { [MODEL]: { name: MODEL, tool_call: true, ...(ownCompaction ? { limit: { context: window, output: 4096 } } : {}) } },
              },
            },
            model: `ollm/${MODEL}`,
          },
          null,
          2,
        ),
      );
      return { args: ['run', '--model', `ollm/${MODEL}`, prompt], env: { OPENCODE_CONFIG: path } };
    },
  },
  cline: {
    packageName: 'cline',
    binary: 'cline',
    api: '/api/chat (Ollama), /v1/chat/completions (llama.cpp)',
    ownCompactionSetting: undefined,
    launchArgs: ({ prompt }) => ({ args: ['--yolo', prompt], env: {} }),
    // `cline auth -b` takes a base URL only for OpenAI-compatible providers: the Ollama provider's
    // `baseUrl` is written into the data dir's settings/providers.json (what `cline auth` writes).
    command: ({ root, home, prompt, mode }) => {
      const dataDir = join(home, '.cline-data');
      // In front of llama.cpp (no /api/chat): Cline's OpenAI-compatible provider.
      const provider = mode === 'llamacpp' ? 'openai-compatible' : 'ollama';
      const baseUrl = mode === 'llamacpp' ? `${root}/v1` : root;
      mkdirSync(join(dataDir, 'settings'), { recursive: true });
      writeFileSync(
        join(dataDir, 'settings', 'providers.json'),
        JSON.stringify(
          {
            version: 1,
            lastUsedProvider: provider,
            modes: {},
            providers: {
              [provider]: { settings: { provider, apiKey: 'ollm-local', model: MODEL, baseUrl }, updatedAt: new Date().toISOString(), tokenSource: 'manual' },
            },
          },
          null,
          2,
        ),
      );
      return { args: ['--yolo', '--data-dir', dataDir, '-P', provider, '-m', MODEL, prompt], env: {} };
    },
  },
  pi: {
    packageName: '@mariozechner/pi-coding-agent',
    binary: 'pi',
    api: '/v1/chat/completions',
    ownCompactionSetting: (window) => `models.json contextWindow=${window}`,
    launchArgs: ({ prompt }) => ({ args: ['-p', prompt], env: {} }),
    command: ({ root, home, prompt, window, ownCompaction }) => {
      const agentDir = join(home, '.pi', 'agent');
      mkdirSync(agentDir, { recursive: true });
      writeFileSync(
        join(agentDir, 'models.json'),
        JSON.stringify(
          {
            providers: {
              ollm: {
                baseUrl: `${root}/v1`,
                api: 'openai-completions',
                apiKey: 'ollm-local',
                models: [{ id: MODEL, name: MODEL, ...(ownCompaction ? { contextWindow: window, maxTokens: 4096 } : {}) }],
              },
            },
          },
          null,
          2,
        ),
      );
      return { args: ['-p', '--provider', 'ollm', '--model', MODEL, prompt], env: { PI_CODING_AGENT_DIR: agentDir } };
    },
  },
};

export const QUIET_ENV = quiet;
