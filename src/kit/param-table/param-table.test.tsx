import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ParamRow } from '../../../schemas/parameter';
import { i18n, initI18n } from '../../i18n';
import { ParamTable, type ParamTableProps } from './param-table';

// Radix Select uses pointer capture and scrollIntoView, which jsdom lacks.
beforeAll(async () => {
  Object.assign(Element.prototype, {
    hasPointerCapture: () => false,
    setPointerCapture: () => {},
    releasePointerCapture: () => {},
    scrollIntoView: () => {},
  });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

function Harness({ initial = [], onValue, ...props }: Omit<ParamTableProps, 'value' | 'onChange'> & { initial?: ParamRow[]; onValue: (v: ParamRow[]) => void }) {
  const [value, setValue] = useState<ParamRow[]>(initial);
  return (
    <ParamTable
      {...props}
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue(v);
      }}
    />
  );
}

const bodyRows = () => screen.getAllByRole('row').slice(1);
const rowByKey = (key: string) => {
  const row = bodyRows().find((r) => within(r).queryByDisplayValue(key));
  if (!row) throw new Error(`no row with key ${key}`);
  return row;
};

async function chooseType(user: ReturnType<typeof userEvent.setup>, row: HTMLElement, type: string) {
  await user.click(within(row).getByRole('combobox', { name: 'Field type' }));
  await user.click(await screen.findByRole('option', { name: type }));
}

describe('ParamTable', () => {
  it('edits a nested JSON body (an object with a nested object and an array) and saves it without ids', { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    const onValue = vi.fn<(v: ParamRow[]) => void>();
    render(<Harness kind="body" defaultSubtype="json" onValue={onValue} />);

    expect(screen.getByRole('tab', { name: 'json' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    // The data row and its first child; the top-level add button is gone (json with rows).
    expect(bodyRows()).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Add parameter' })).toBeNull();
    const dataRow = rowByKey('data');
    expect(within(dataRow).getByRole('textbox', { name: 'Field key' })).toBeDisabled();
    expect(within(dataRow).getByRole('button', { name: 'Delete parameter' })).toBeDisabled();

    const [, firstChild] = bodyRows();
    expect(within(firstChild).getByRole('combobox', { name: 'Field type' })).toBeDisabled();
    await user.type(within(firstChild).getByRole('textbox', { name: 'Field key' }), 'id');

    // A nested object as the second child of data.
    await user.click(within(rowByKey('data')).getByRole('button', { name: 'Add a child parameter' }));
    const second = bodyRows()[2];
    await user.type(within(second).getByRole('textbox', { name: 'Field key' }), 'user');
    await chooseType(user, rowByKey('user'), 'object');
    // Choosing object added one child, shown expanded and indented.
    expect(bodyRows()).toHaveLength(4);
    const grandchild = bodyRows()[3];
    expect(grandchild).toHaveAttribute('data-depth', '2');
    await user.type(within(grandchild).getByRole('textbox', { name: 'Field key' }), 'name');
    await user.click(within(rowByKey('name')).getByRole('checkbox', { name: 'Required' }));

    // An array of strings, inserted after "id".
    await user.click(within(rowByKey('id')).getByRole('button', { name: 'Insert a parameter below' }));
    const inserted = bodyRows()[2];
    await user.type(within(inserted).getByRole('textbox', { name: 'Field key' }), 'tags');
    await user.click(within(rowByKey('tags')).getByRole('checkbox', { name: 'Array' }));

    const saved = onValue.mock.lastCall![0];
    const common = { request_type: 'body', request_subtype: 'json', param_name: '', description: '', optional_values: '', default_value: '', param_value: '' };
    expect(saved).toEqual([
      {
        ...common,
        param_key: 'data',
        data_type: 'object',
        is_array: false,
        is_not_null: false,
        children: [
          { ...common, param_key: 'id', data_type: 'string', is_array: false, is_not_null: false },
          { ...common, param_key: 'tags', data_type: 'string', is_array: true, is_not_null: false },
          {
            ...common,
            param_key: 'user',
            data_type: 'object',
            is_array: false,
            is_not_null: false,
            children: [{ ...common, param_key: 'name', data_type: 'string', is_array: false, is_not_null: true }],
          },
        ],
      },
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/"id":|"expanded"/);

    // Collapsing the nested object hides its child.
    await user.click(within(rowByKey('user')).getByRole('button', { name: 'Collapse' }));
    expect(bodyRows()).toHaveLength(4);
    expect(screen.queryByDisplayValue('name')).toBeNull();
  });

  it('loads saved rows as the same tree (reload)', () => {
    const saved: ParamRow[] = [
      {
        param_key: 'data',
        data_type: 'object',
        request_type: 'body',
        request_subtype: 'json',
        children: [
          { param_key: 'items', data_type: 'object', is_array: true, children: [{ param_key: 'sku', data_type: 'string' }] },
        ],
      },
    ];
    render(<ParamTable kind="body" value={saved} readOnly />);
    expect(screen.getByText('json')).toBeInTheDocument();
    const rows = bodyRows();
    expect(rows.map((r) => r.getAttribute('data-depth'))).toEqual(['0', '1', '2']);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['data', 'items', 'sku']);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add parameter' })).toBeNull();
  });

  it('shows a cell error after an edit, reports issues and re-translates on language change', async () => {
    const user = userEvent.setup();
    const onIssues = vi.fn();
    render(<Harness kind="params" onValue={() => {}} onIssuesChange={onIssues} />);
    expect(screen.getByText('No parameters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    // Not shown before the row is edited…
    expect(screen.queryByText(/Field key/, { selector: 'p' })).toBeNull();
    expect(onIssues).toHaveBeenLastCalledWith([expect.objectContaining({ field: 'param_key' })]);
    await user.type(screen.getByRole('textbox', { name: 'Field key' }), 'a-b');
    const key = screen.getByRole('textbox', { name: 'Field key' });
    expect(key).toHaveAttribute('aria-invalid', 'true');
    expect(key).toHaveAccessibleDescription('Field key "a-b" may contain only English letters, digits and underscore');
    await act(() => i18n.changeLanguage('zh'));
    expect(screen.getByText('字段键“a-b”只能包含英文字母、数字和下划线')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
    await user.clear(key);
    await user.type(key, 'a_b');
    expect(key).not.toHaveAttribute('aria-invalid');
    expect(onIssues).toHaveBeenLastCalledWith([]);
  });

  it('switching the body subtype keeps each subtype’s rows', async () => {
    const user = userEvent.setup();
    const onValue = vi.fn<(v: ParamRow[]) => void>();
    const onSubtype = vi.fn();
    render(<Harness kind="body" onValue={onValue} onSubtypeChange={onSubtype} />);
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    await user.type(screen.getByRole('textbox', { name: 'Field key' }), 'file');
    await user.click(screen.getByRole('tab', { name: 'json' }));
    expect(onSubtype).toHaveBeenLastCalledWith('json');
    expect(onValue).toHaveBeenLastCalledWith([]);
    expect(screen.getByText('No parameters')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'form-data' }));
    expect(screen.getByDisplayValue('file')).toBeInTheDocument();
    expect(onValue.mock.lastCall![0]).toMatchObject([{ param_key: 'file', request_type: 'body', request_subtype: 'form-data' }]);
  });

  it('offers the URL body types query_string and path (spec 9), saying where their fields go and offering only plain field types', async () => {
    const user = userEvent.setup();
    const onValue = vi.fn<(v: ParamRow[]) => void>();
    const onSubtype = vi.fn();
    render(<Harness kind="body" onValue={onValue} onSubtypeChange={onSubtype} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['form-data', 'x-www-form-urlencoded', 'json', 'query_string', 'path']);
    await user.click(screen.getByRole('tab', { name: 'query_string' }));
    expect(onSubtype).toHaveBeenLastCalledWith('query_string');
    expect(screen.getByText("These fields are appended to the URL's query (for every method; no body is sent).")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    await user.type(screen.getByRole('textbox', { name: 'Field key' }), 'q');
    await user.click(screen.getByRole('combobox', { name: 'Field type' }));
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).not.toContain('object');
    expect(offered).not.toContain('file');
    await user.keyboard('{Escape}');
    expect(onValue.mock.lastCall![0]).toMatchObject([{ param_key: 'q', request_type: 'body', request_subtype: 'query_string' }]);
    await user.click(screen.getByRole('tab', { name: 'path' }));
    expect(screen.getByText('Each field replaces its {key} placeholder in the URL path (no body is sent).')).toBeInTheDocument();
  });

  it('header rows: type, value and data type columns', () => {
    render(<ParamTable kind="headers" value={[{ param_key: 'Content-Type', param_value: 'application/json', data_type: 'string' }]} showAllErrors />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Type', 'Value', 'Data type', 'Actions']);
    expect(screen.getByRole('textbox', { name: 'Type' })).toHaveValue('Content-Type');
    expect(screen.queryByText(/cannot be empty/)).toBeNull();
  });
});
