import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOllm, temporaryFolder } from './run-ollm.js';

describe('ollm config', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  const config = () => runOllm(['config'], { cwd: folder.path, env });

  it('lists the compaction section, each key with its source', async () => {
    writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ compaction: { threshold: 0.7 } }));
    const run = await config();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^compaction\.threshold\s+0\.7\s+\S+\.ollmrc\.json$/m);
    expect(run.stdout).toMatch(/^compaction\.enabled\s+true\s+default$/m);
    expect(run.stdout).toMatch(/^compaction\.replyReserve\s+\(15% of the window\)\s+default$/m);
    expect(run.stdout).not.toMatch(/^compression\./m);
  });

  it('still reads the deprecated compression section, as compaction, and warns once on stderr', async () => {
    const file = join(folder.path, '.ollmrc.json');
    writeFileSync(file, JSON.stringify({ compression: { threshold: 0.7 } }));
    const run = await config();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^compaction\.threshold\s+0\.7\s+\S+\.ollmrc\.json$/m);
    expect(run.stderr).toBe(`ollm: warning: ${file}: "compression" is the old name of the "compaction" section; it still works, but rename it\n`);
  });
});
