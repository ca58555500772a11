import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { InvalidConfigError } from '../errors/invalid-config-error.js';
import { MODEL_MARKER_POLICIES } from '../goals/model-marker-policy.js';
import { loadConfig } from './load-config.js';

const newFolder = temporaryFolders('config-goals');

describe('config goals.modelMarkers', () => {
  it('is apply-when-unset by default; a file may choose any policy; anything else names the file and key', async () => {
    const project = newFolder();
    const env = { OLLM_HOME: join(project, 'home') };
    const defaults = await loadConfig({ cwd: project, env });
    expect(defaults.config.goals).toEqual({ modelMarkers: 'apply-when-unset' });
    expect(defaults.sources['goals.modelMarkers']).toBe('default');
    for (const policy of MODEL_MARKER_POLICIES) {
      writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ goals: { modelMarkers: policy } }));
      const loaded = await loadConfig({ cwd: project, env });
      expect(loaded.config.goals.modelMarkers).toBe(policy);
      expect(loaded.sources['goals.modelMarkers']).toBe(join(project, '.ollmrc.json'));
    }
    writeFileSync(join(project, '.ollmrc.json'), JSON.stringify({ goals: { modelMarkers: 'always' } }));
    const error = await loadConfig({ cwd: project, env }).catch((caught: unknown) => caught);
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigError).key).toBe('goals.modelMarkers');
  });
});
