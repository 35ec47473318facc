import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createNodeRegistry, type ConfigOf } from './index';
import { defineNodeView, withView, type AnyEditorNodePlugin, type NodeBodyProps, type NodePanelProps } from './view';
import { branch, echo, samplePlugins } from './samples.fixture';

type EchoConfig = ConfigOf<typeof echo>;

function EchoBody({ config }: NodeBodyProps<EchoConfig>) {
  return <p>{config.upper ? config.text.toUpperCase() : config.text}</p>;
}

function EchoPanel({ config, onChange, readOnly }: NodePanelProps<EchoConfig>) {
  return <input aria-label="text" disabled={readOnly} value={config.text} onChange={(e) => onChange({ ...config, text: e.target.value })} />;
}

describe('views', () => {
  it('attach to a plugin, typed by its config, and list beside other plugins without any', () => {
    const echoView = defineNodeView(echo, { Body: EchoBody, Panel: EchoPanel });
    const editorPlugins: AnyEditorNodePlugin[] = [withView(echo, echoView), withView(branch)];
    const registry = createNodeRegistry(editorPlugins);
    const Body = registry.get('echo')?.view?.Body;
    expect(registry.get('branch')?.view).toBeUndefined();
    expect(registry.get('echo')?.outputs).toBe(echo.outputs);
    const config = { ...registry.defaults('echo'), text: 'hi', upper: true } as EchoConfig;
    const node = { id: 'e', kind: 'echo', kindVersion: 2, title: '', position: { x: 0, y: 0 }, config };
    render(Body ? <Body node={node} config={config} selected={false} readOnly={false} /> : null);
    expect(screen.getByText('HI')).toBeInTheDocument();
  });

  it('keeps React out of the manifest side of the SDK', () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const manifestFiles = fs
      .readdirSync(dir)
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && f !== 'view.ts');
    expect(manifestFiles).toContain('index.ts');
    for (const f of manifestFiles) {
      const src = fs.readFileSync(path.join(dir, f), 'utf8');
      expect(src, f).not.toMatch(/from ['"]react(?:-dom)?(?:\/[^'"]*)?['"]/);
      expect(src, f).not.toMatch(/from ['"]\.\/view['"]/);
    }
    expect(samplePlugins.every((p) => !('view' in p))).toBe(true);
  });
});
