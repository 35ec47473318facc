import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18n, initI18n } from '../../i18n';
import { createNodeRegistry, defineNodePlugin } from '../../plugin-sdk';
import { defineNodeView, withView, type NodePanelProps } from '../../plugin-sdk/view';
import { start } from '../../plugin-sdk/samples.fixture';
import { FlowStoreProvider } from '../react/flow-store-context';
import { createFlowStore } from '../store/create-flow-store';
import { changedKeys } from './logic';
import { NodeInspector } from './node-inspector';

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

const texts = { zh: { title: '天气', description: '查询天气', issues: { cityEmpty: '请填写城市' } }, en: { title: 'Weather', description: 'Looks up the weather', issues: { cityEmpty: 'Enter a city' } } };

const weather = defineNodePlugin({
  kind: 'weather',
  version: 1,
  category: 'tool',
  icon: { svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>' },
  i18n: texts,
  configSchema: z.object({ city: z.string().default(''), unit: z.enum(['c', 'f']).default('c') }),
  validate: (node) => (node.config.city ? [] : [{ key: 'issues.cityEmpty', path: ['city'] }]),
});

type WeatherConfig = z.infer<typeof weather.configSchema>;

/** A plugin's own panel: the inspector hands it the config and takes whole new configs back. */
function Panel({ config, onChange, issues, readOnly }: NodePanelProps<WeatherConfig>) {
  return (
    <div>
      <input aria-label="City" value={config.city} readOnly={readOnly} onChange={(e) => onChange({ ...config, city: e.target.value })} />
      <button onClick={() => onChange({ ...config, city: 'Paris', unit: 'f' })}>Paris in °F</button>
      <output>{issues.length} issues</output>
    </div>
  );
}

describe('a plugin panel in the inspector', () => {
  it('replaces the schema form; typing merges per field, a multi-field change is one step', async () => {
    const registry = createNodeRegistry([start, withView(weather, defineNodeView(weather, { Panel }))]);
    const store = createFlowStore({ registry, mode: 'workflow', document: { ...registry.createFlow('workflow'), nodes: [] } });
    const id = store.addNode('weather')!;
    const user = userEvent.setup();
    render(
      <FlowStoreProvider store={store}>
        <NodeInspector nodeId={id} />
      </FlowStoreProvider>,
    );
    expect(screen.getByText('Looks up the weather')).toBeInTheDocument();
    expect(screen.getByText('1 issues')).toBeInTheDocument();
    // With a panel, field issues are listed above it.
    expect(screen.getByRole('list', { name: '1 issues' })).toHaveTextContent('Enter a city');
    await user.type(screen.getByRole('textbox', { name: 'City' }), 'Oslo');
    const city = () => store.toDocument().nodes.find((n) => n.id === id)!.config.city;
    expect(city()).toBe('Oslo');
    await user.click(screen.getByRole('button', { name: 'Paris in °F' }));
    expect(store.toDocument().nodes.find((n) => n.id === id)!.config).toEqual({ city: 'Paris', unit: 'f' });
    act(() => void store.undo());
    expect(store.toDocument().nodes.find((n) => n.id === id)!.config).toEqual({ city: 'Oslo', unit: 'c' });
    act(() => void store.undo());
    expect(city()).toBe('');
  });

  it('diffs configs by top-level key', () => {
    expect(changedKeys({ a: 1, b: [1] }, { a: 1, b: [1], c: 2 })).toEqual(['b', 'c']);
    const same = [1];
    expect(changedKeys({ a: same }, { a: same })).toEqual([]);
  });
});
