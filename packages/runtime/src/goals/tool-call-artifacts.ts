import type { ArtifactAction, Message, ToolCallPart } from '@ollm/core';

/** One file a tool call wrote: what the goal's artifact list records. */
export interface ToolCallArtifact {
  readonly action: ArtifactAction;
  readonly path: string;
  readonly callId: string;
}

/** The argument names the agents' file tools carry their path under (Claude Code, Codex, opencode, Cline, SWE-agent, MCP servers). */
const PATH_KEYS = ['file_path', 'filePath', 'path', 'filename', 'file', 'target_file', 'notebook_path', 'absolute_path'] as const;

/** Tool names that write a file (lower case, words split on `_`, `-`, `.` and case changes). */
const CREATE_WORDS = new Set(['write', 'create', 'new']);
const MODIFY_WORDS = new Set(['edit', 'multiedit', 'patch', 'replace', 'insert', 'update', 'modify', 'append']);
const DELETE_WORDS = new Set(['delete', 'remove', 'rm', 'unlink']);

/** A str_replace editor's sub-commands (`str_replace_editor`, `str_replace_based_edit_tool`): `view` writes nothing. */
const EDITOR_COMMANDS: Readonly<Record<string, ArtifactAction | undefined>> = {
  create: 'created',
  str_replace: 'modified',
  insert: 'modified',
  edit: 'modified',
  undo_edit: 'modified',
  delete: 'deleted',
};

/** `apply_patch` bodies name each file on a header line. */
const PATCH_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/gm;
const PATCH_ACTION: Record<string, ArtifactAction> = { Add: 'created', Update: 'modified', Delete: 'deleted' };

/** Shell commands that write a file: a redirection, `tee`, `sed -i`, `touch`, `rm`. */
const SHELL_KEYS = ['command', 'cmd', 'script'] as const;
const REDIRECT = /(?:^|[^0-9&>])>>?\s*(?!&)(['"]?)([^\s'";|&<>()]+)\1/g;
const TEE = /\btee\s+(?:-a\s+)?(['"]?)([^\s'";|&<>()]+)\1/g;
const SED_IN_PLACE = /\bsed\s+(?:-[a-zA-Z]*i[a-zA-Z]*|--in-place)\b[^;&|\n]*?\s(['"]?)([^\s'";|&<>()-][^\s'";|&<>()]*)\1\s*(?:$|[;&|\n])/gm;
const TOUCH = /\btouch\s+(['"]?)([^\s'";|&<>()-][^\s'";|&<>()]*)\1/g;
const REMOVE = /\brm\s+(?:-[a-zA-Z]+\s+)*(['"]?)([^\s'";|&<>()-][^\s'";|&<>()]*)\1/g;

/**
 * The files the tool calls of `messages` wrote, in order: file tools (write, edit, create, delete,
 * str_replace editors, `apply_patch`) and the plain shell forms (`>`, `tee`, `sed -i`, `touch`,
 * `rm`). A call whose result is an error wrote nothing. Reads (`view`, `cat`) are not artifacts.
 */
export function toolCallArtifacts(messages: readonly Message[]): ToolCallArtifact[] {
  const failed = new Set<string>();
  for (const message of messages) for (const part of message.parts) if (part.type === 'tool-result' && part.isError) failed.add(part.callId);
  const artifacts: ToolCallArtifact[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || failed.has(part.callId)) continue;
      for (const artifact of artifactsOfCall(part)) artifacts.push({ ...artifact, callId: part.callId });
    }
  }
  return artifacts;
}

function artifactsOfCall(call: ToolCallPart): { action: ArtifactAction; path: string }[] {
  const input = argumentsOf(call);
  if (!input) return [];
  const patch = typeof input['input'] === 'string' ? input['input'] : typeof input['patch'] === 'string' ? input['patch'] : undefined;
  if (patch !== undefined && patch.includes('*** ')) {
    return [...patch.matchAll(PATCH_HEADER)].map((match) => ({ action: PATCH_ACTION[match[1]!]!, path: match[2]! }));
  }
  const path = PATH_KEYS.map((key) => input[key]).find((value): value is string => typeof value === 'string' && value.trim().length > 0);
  if (path !== undefined) {
    const action = typeof input['command'] === 'string' ? EDITOR_COMMANDS[input['command']] : actionOfName(call.name);
    return action ? [{ action, path: path.trim() }] : [];
  }
  // Codex's shell tool sends its argv (`["bash", "-lc", "…"]`).
  const shell = SHELL_KEYS.map((key) => input[key])
    .map((value) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(' ') : value))
    .find((value): value is string => typeof value === 'string');
  return shell !== undefined ? shellArtifacts(shell) : [];
}

/** The tool's arguments as an object (OpenAI sends a JSON string). */
function argumentsOf(call: ToolCallPart): Record<string, unknown> | undefined {
  let input = call.input;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(input) && input.every((item) => typeof item === 'string')) return { command: input.join(' ') };
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
}

/** What a file tool's name says it does: `Write`, `write_file`, `editFile`, `delete-file`; undefined for reads. */
function actionOfName(name: string): ArtifactAction | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.\-/:]+/);
  if (words.some((word) => DELETE_WORDS.has(word))) return 'deleted';
  if (words.some((word) => MODIFY_WORDS.has(word))) return 'modified';
  if (words.some((word) => CREATE_WORDS.has(word))) return 'created';
  return undefined;
}

function shellArtifacts(command: string): { action: ArtifactAction; path: string }[] {
  const found: { action: ArtifactAction; path: string; at: number }[] = [];
  const collect = (pattern: RegExp, action: ArtifactAction, fileLike = false) => {
    for (const match of command.matchAll(pattern)) {
      const path = match[2]!;
      if (path.startsWith('/dev/') || path.startsWith('$')) continue;
      // `>` also compares inside quoted code (`python -c "a > b"`): a redirection target names a file.
      if (fileLike && !/[./]/.test(path)) continue;
      found.push({ action, path, at: match.index ?? 0 });
    }
  };
  collect(REDIRECT, 'modified', true);
  collect(TEE, 'modified', true);
  collect(SED_IN_PLACE, 'modified');
  collect(TOUCH, 'created');
  collect(REMOVE, 'deleted');
  return found.sort((a, b) => a.at - b.at).map(({ action, path }) => ({ action, path }));
}
