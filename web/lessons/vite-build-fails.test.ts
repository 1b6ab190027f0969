// vite-build-fails.test.ts: a malformed lesson really stops `vite build`, with a message naming
// the file, the line and the field; and the site's own config (what `npm run build` and the build
// step of `npm test` use) runs that check on the repository's lessons.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, loadConfigFromFile, type Plugin, type PluginOption } from 'vite';
import { describe, expect, it } from 'vitest';
import { lessonSchemaPlugin } from './vite-plugin';

function flat(plugins: PluginOption[] | undefined): Plugin[] {
  return (plugins ?? [])
    .flat(Infinity as 1)
    .filter((p): p is Plugin => !!p && typeof p === 'object' && 'name' in p);
}

describe('vite build with a malformed lesson', () => {
  it('fails, naming the file, line and field', { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'lesson-build-'));
    try {
      cpSync('web/lessons/fixtures/99-malformed', join(root, 'lessons/99-malformed'), {
        recursive: true,
      });
      writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title><p>t</p>');
      const run = build({
        configFile: false,
        root,
        logLevel: 'silent',
        plugins: [lessonSchemaPlugin(root)],
        build: { write: false },
      });
      await expect(run).rejects.toThrow(
        'lessons/99-malformed/lesson.md:20: question block: missing field `answer`',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('is part of the site build that npm run build and npm test run', async () => {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      resolve('vite.config.ts'),
    );
    expect(flat(loaded?.config.plugins).map((p) => p.name)).toContain('buddyscope-lesson-schema');
  });
});
