import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { CredentialCreateBody } from '../../schemas/credential';
import { DatabaseCreateBody } from '../../schemas/database';
import { SchemaForm } from '../../src/kit/schema-form';

const meta = {
  title: 'Kit/SchemaForm',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
  decorators: [(Story) => <div style={{ maxWidth: 560 }}>{Story()}</div>],
} satisfies Meta;
export default meta;
type Story = StoryObj;

/** The credential form: required and length messages of spec 5, a secret field. */
const submitted = fn();
export const Validation: Story = {
  render: () => <SchemaForm schema={CredentialCreateBody} ns="credential" onSubmit={submitted} onCancel={() => {}} />,
  play: async ({ canvas }) => {
    submitted.mockClear();
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await expect((await canvas.findAllByText('This form field is required!')).length).toBe(2);
    await userEvent.type(canvas.getByRole('textbox', { name: /^Identifier/ }), 'maps');
    await userEvent.type(canvas.getByLabelText(/^SK/), 'abc');
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(submitted).toHaveBeenCalledWith({ identifier: 'maps', ak: '', sk: 'abc', cred_id: '', description: '' }));
  },
};

/** A conditional field: the SID shows only for Oracle. */
export const ConditionalField: Story = {
  render: () => <SchemaForm schema={DatabaseCreateBody} ns="database" defaultValues={{ type: 'oracle' }} onSubmit={() => {}} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('textbox', { name: /^SID/ })).toBeVisible();
    await expect(canvas.queryByRole('textbox', { name: /^Database/ })).not.toBeInTheDocument();
  },
};

/** A server answer whose field errors go back onto the fields. */
export const ServerErrors: Story = {
  render: () => (
    <SchemaForm
      schema={CredentialCreateBody}
      ns="credential"
      defaultValues={{ identifier: 'taken', sk: 'x' }}
      onSubmit={() => Promise.reject({ code: 'VALIDATION-1000', msg: 'Parameter error', data: [{ path: 'body/identifier', message: 'exceeds maximum length 50' }] })}
    />
  ),
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await expect(await canvas.findByText('exceeds maximum length 50')).toBeVisible();
  },
};

export const Disabled: Story = { render: () => <SchemaForm schema={CredentialCreateBody} ns="credential" disabled onSubmit={() => {}} /> };

export const ReadOnly: Story = {
  render: () => <SchemaForm schema={CredentialCreateBody} ns="credential" readOnly defaultValues={{ identifier: 'payments', ak: 'AK-1', sk: 'secret', cred_id: '', description: 'Stripe' }} />,
};
