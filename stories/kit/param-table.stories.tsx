import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import type { ParamRow } from '../../schemas/parameter';
import { i18n } from '../../src/i18n';
import { ParamTable, type ParamTableProps } from '../../src/kit/param-table';

/** The story's table, controlled, with the value it would save shown under it. */
function ParamTableDemo({ value: initial, onChange, ...props }: ParamTableProps) {
  const [value, setValue] = useState<readonly ParamRow[] | undefined>(initial);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 1200 }}>
      <ParamTable
        {...props}
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange?.(v);
        }}
      />
      <details>
        <summary style={{ fontSize: 12, color: 'var(--color-text-tertiary)', cursor: 'pointer' }}>value</summary>
        <pre data-testid="saved" style={{ fontSize: 11, maxHeight: 240, overflow: 'auto' }}>
          {JSON.stringify(value ?? [], null, 2)}
        </pre>
      </details>
    </div>
  );
}

const meta = {
  title: 'Kit/ParamTable',
  component: ParamTableDemo,
  args: { kind: 'params', value: [], onChange: fn(), onSubtypeChange: fn(), onIssuesChange: fn() },
  argTypes: {
    kind: { control: 'select', options: ['params', 'headers', 'body', 'response'] },
    defaultSubtype: { control: 'select', options: ['form-data', 'x-www-form-urlencoded', 'json'] },
  },
} satisfies Meta<typeof ParamTableDemo>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Texts of the `param` namespace in the language the story runs in (the toolbar's). */
const tp = (key: string, options?: Record<string, unknown>) =>
  (i18n.t as (k: string, o?: Record<string, unknown>) => string)(`param:${key}`, options);

const bodyRows = (canvasElement: HTMLElement) => within(canvasElement).getAllByRole('row').slice(1);
const rowByKey = (canvasElement: HTMLElement, key: string) => {
  const row = bodyRows(canvasElement).find((r) => within(r).queryByDisplayValue(key));
  if (!row) throw new Error(`no row with key ${key}`);
  return row;
};
const keyInput = (row: HTMLElement) => within(row).getByRole('textbox', { name: tp('columns.param_key') });
const saved = (canvasElement: HTMLElement): ParamRow[] => JSON.parse(within(canvasElement).getByTestId('saved').textContent ?? '[]');

async function chooseType(row: HTMLElement, type: string) {
  await userEvent.click(within(row).getByRole('combobox', { name: tp('columns.data_type') }));
  await userEvent.click(await screen.findByRole('option', { name: type }));
}

const requestParams: ParamRow[] = [
  { param_name: '城市', param_key: 'city', data_type: 'string', request_type: 'query_params', is_not_null: true, description: '城市名称', optional_values: 'beijing,shanghai', default_value: 'beijing' },
  { param_name: '天数', param_key: 'days', data_type: 'integer', request_type: 'query_params', default_value: '3', description: '预报天数' },
  { param_name: '站点', param_key: 'station_id', data_type: 'long', request_type: 'query_path', is_not_null: true, description: '路径中的站点编号' },
];

const jsonBody: ParamRow[] = [
  {
    param_key: 'data',
    data_type: 'object',
    request_type: 'body',
    request_subtype: 'json',
    children: [
      { param_name: '编号', param_key: 'id', data_type: 'string', is_not_null: true, description: '订单编号' },
      { param_name: '标签', param_key: 'tags', data_type: 'string', is_array: true, description: '字符串数组' },
      {
        param_name: '用户',
        param_key: 'user',
        data_type: 'object',
        description: '嵌套对象',
        children: [{ param_name: '姓名', param_key: 'name', data_type: 'string', is_not_null: true }],
      },
    ],
  },
];

/** Request parameters: query and path rows. */
export const RequestParams: Story = {
  args: { kind: 'params', value: requestParams },
  play: async ({ canvasElement }) => {
    await expect(bodyRows(canvasElement)).toHaveLength(3);
    await expect(within(canvasElement).getByRole('button', { name: tp('actions.add') })).toBeVisible();
  },
};

export const Empty: Story = {
  args: { kind: 'params', value: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText(tp('empty'))).toBeVisible();
  },
};

/** Build a JSON body with a nested object and an array, from an empty json body. */
export const BuildJsonBody: Story = {
  args: { kind: 'body', defaultSubtype: 'json', value: [] },
  play: async ({ canvasElement, canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: tp('actions.add') }));
    // The locked root "data" with one child; no top-level add button in a json body with rows.
    await expect(bodyRows(canvasElement)).toHaveLength(2);
    await expect(canvas.queryByRole('button', { name: tp('actions.add') })).toBeNull();
    await userEvent.type(keyInput(bodyRows(canvasElement)[1]), 'id');

    await userEvent.click(within(rowByKey(canvasElement, 'data')).getByRole('button', { name: tp('actions.addChild') }));
    await userEvent.type(keyInput(bodyRows(canvasElement)[2]), 'user');
    await chooseType(rowByKey(canvasElement, 'user'), 'object');
    // The select's popup hides the rest from the a11y tree until it has closed.
    await waitFor(() => expect(bodyRows(canvasElement)).toHaveLength(4));
    await userEvent.type(keyInput(bodyRows(canvasElement)[3]), 'name');

    await userEvent.click(within(rowByKey(canvasElement, 'id')).getByRole('button', { name: tp('actions.insertAfter') }));
    await userEvent.type(keyInput(bodyRows(canvasElement)[2]), 'tags');
    await userEvent.click(within(rowByKey(canvasElement, 'tags')).getByRole('checkbox', { name: tp('columns.is_array') }));

    const value = saved(canvasElement);
    await expect(value).toMatchObject([
      {
        param_key: 'data',
        data_type: 'object',
        request_type: 'body',
        request_subtype: 'json',
        children: [
          { param_key: 'id', data_type: 'string' },
          { param_key: 'tags', data_type: 'string', is_array: true },
          { param_key: 'user', data_type: 'object', children: [{ param_key: 'name', data_type: 'string' }] },
        ],
      },
    ]);
    await expect(JSON.stringify(value)).not.toMatch(/"id":/);
    await expect(args.onChange).toHaveBeenLastCalledWith(value);
  },
};

/** Switching the body subtype keeps each subtype's rows. */
export const SwitchSubtype: Story = {
  args: {
    kind: 'body',
    value: [
      { param_key: 'file', data_type: 'string', request_type: 'body', request_subtype: 'form-data', is_not_null: true },
      { param_key: 'name', data_type: 'string', request_type: 'body', request_subtype: 'form-data' },
    ],
  },
  play: async ({ canvasElement, canvas, args }) => {
    const tab = (name: string) => canvas.getByRole('tab', { name });
    await expect(tab('form-data')).toHaveAttribute('aria-selected', 'true');

    await userEvent.click(tab('json'));
    await expect(args.onSubtypeChange).toHaveBeenLastCalledWith('json');
    await expect(canvas.getByText(tp('empty'))).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: tp('actions.add') }));
    await userEvent.type(keyInput(bodyRows(canvasElement)[1]), 'order_id');

    await userEvent.click(tab('x-www-form-urlencoded'));
    await userEvent.click(canvas.getByRole('button', { name: tp('actions.add') }));
    await userEvent.type(keyInput(bodyRows(canvasElement)[0]), 'token');
    await expect(saved(canvasElement)).toMatchObject([{ param_key: 'token', request_subtype: 'x-www-form-urlencoded' }]);

    await userEvent.click(tab('form-data'));
    await expect(bodyRows(canvasElement).map((r) => keyInput(r).getAttribute('value'))).toEqual(['file', 'name']);
    await expect(saved(canvasElement)).toMatchObject([{ request_subtype: 'form-data' }, { request_subtype: 'form-data' }]);

    await userEvent.click(tab('json'));
    await expect(bodyRows(canvasElement).map((r) => keyInput(r).getAttribute('value'))).toEqual(['data', 'order_id']);

    await userEvent.click(tab('x-www-form-urlencoded'));
    await expect(canvas.getByDisplayValue('token')).toBeVisible();
  },
};

/** A loaded json body: the locked rows cannot be deleted, the root key and the first child's type are fixed. */
export const LockedRows: Story = {
  args: { kind: 'body', value: jsonBody },
  play: async ({ canvasElement }) => {
    const del = (key: string) => within(rowByKey(canvasElement, key)).getByRole('button', { name: tp('actions.delete') });
    await expect(del('data')).toBeDisabled();
    await expect(del('name')).toBeDisabled();
    await expect(del('id')).toBeEnabled();
    await expect(del('user')).toBeEnabled();
    await expect(keyInput(rowByKey(canvasElement, 'data'))).toBeDisabled();
    await expect(within(rowByKey(canvasElement, 'id')).getByRole('combobox', { name: tp('columns.data_type') })).toBeDisabled();
    await expect(within(rowByKey(canvasElement, 'tags')).getByRole('combobox', { name: tp('columns.data_type') })).toBeEnabled();
  },
};

/** A validation error shows under its cell and follows the language (as the Language toolbar switches it). */
export const ValidationError: Story = {
  args: { kind: 'params', value: [] },
  play: async ({ canvasElement, canvas, args }) => {
    const start = i18n.resolvedLanguage === 'en' ? 'en' : 'zh';
    const other = start === 'en' ? 'zh' : 'en';
    await userEvent.click(canvas.getByRole('button', { name: tp('actions.add') }));
    const input = keyInput(bodyRows(canvasElement)[0]);
    await userEvent.type(input, 'user-id');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    const message = (lng: string) => i18n.getFixedT(lng, 'param')('errors.keyPattern', { key: 'user-id' });
    await expect(canvas.getByText(message(start))).toBeVisible();
    await expect(args.onIssuesChange).toHaveBeenLastCalledWith([expect.objectContaining({ field: 'param_key' })]);
    try {
      await i18n.changeLanguage(other);
      await waitFor(() => expect(canvas.getByText(message(other))).toBeVisible());
      await expect(canvas.queryByText(message(start))).toBeNull();
    } finally {
      await i18n.changeLanguage(start);
    }
    await userEvent.clear(input);
    await userEvent.type(input, 'user_id');
    await expect(input).not.toHaveAttribute('aria-invalid');
    await expect(args.onIssuesChange).toHaveBeenLastCalledWith([]);
  },
};

/** Every issue shown at once (a submitted form), on loaded rows. */
export const WithErrors: Story = {
  args: {
    kind: 'params',
    showAllErrors: true,
    value: [
      { param_name: '关键词', param_key: '', data_type: 'string' },
      { param_name: '页码', param_key: 'page-no', data_type: 'integer' },
      { param_name: '开关', param_key: 'flag', data_type: 'boolean' },
    ],
  },
};

export const Headers: Story = {
  args: {
    kind: 'headers',
    value: [
      { param_key: 'Content-Type', param_value: 'application/json', data_type: 'string' },
      { param_key: 'X-Api-Version', param_value: '2', data_type: 'integer' },
    ],
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('columnheader', { name: tp('columns.headerType') })).toBeVisible();
    await expect(canvas.getByDisplayValue('Content-Type')).toBeVisible();
  },
};

export const ResponseBody: Story = {
  args: {
    kind: 'response',
    value: [
      { param_key: 'code', data_type: 'integer', description: '0 表示成功' },
      {
        param_key: 'items',
        data_type: 'object',
        is_array: true,
        description: '结果列表',
        children: [
          { param_key: 'title', data_type: 'string' },
          { param_key: 'published_at', data_type: 'datetime' },
          { param_key: 'score', data_type: 'decimal' },
        ],
      },
    ],
  },
};

export const ReadOnly: Story = {
  args: { kind: 'body', value: jsonBody, readOnly: true },
  play: async ({ canvas }) => {
    await expect(canvas.queryByRole('textbox')).toBeNull();
    await expect(canvas.getByText('user')).toBeVisible();
    await userEvent.click(canvas.getAllByRole('button', { name: tp('actions.collapse') })[1]);
    await expect(canvas.queryByText('name')).toBeNull();
  },
};
