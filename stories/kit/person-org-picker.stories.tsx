import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { PersonOrgPicker, type PersonOrgPickerProps } from '../../src/kit/person-org-picker/person-org-picker';
import { PersonOrgPickerField } from '../../src/kit/person-org-picker/picker-field';
import { createMemoryPickerSource, demoId, demoPickerSeed, type MemoryPickerSource } from '../../src/kit/person-org-picker/memory-source';
import type { PickerItem } from '../../src/kit/person-org-picker/types';
import { Button } from '../../src/ui/button';

/** Organisations and people of demoPickerSeed(). */
const ORG = { root: demoId('org', 1), eng: demoId('org', 2), platform: demoId('org', 3), frontend: demoId('org', 4), product: demoId('org', 5), support: demoId('org', 9) };
const USER = { alice: demoId('user', 1), bob: demoId('user', 2), carol: demoId('user', 3), frank: demoId('user', 6), olivia: demoId('user', 13) };

interface DemoArgs extends Omit<PersonOrgPickerProps, 'open' | 'onOpenChange' | 'dataSource'> {
  /** Options of the in-memory source this story uses. */
  latencyMs?: number;
  failRoots?: boolean;
}

/** Opens the picker at once; confirming shows the chosen names under the button. */
function PickerDemo({ source, value: initial = [], onChange, ...props }: Omit<PersonOrgPickerProps, 'open' | 'onOpenChange'> & { source: MemoryPickerSource }) {
  const [open, setOpen] = useState(true);
  const [value, setValue] = useState<string[]>(initial);
  const [names, setNames] = useState<string[]>([]);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12, alignItems: 'flex-start' }}>
      <Button onClick={() => setOpen(true)}>Open picker</Button>
      <output data-testid="chosen">{names.join(', ')}</output>
      <PersonOrgPicker
        {...props}
        open={open}
        onOpenChange={setOpen}
        value={value}
        dataSource={source}
        onChange={(ids, items: PickerItem[]) => {
          setValue(ids);
          setNames(items.map((i) => (i.kind === 'user' ? i.user.name : i.org.name)));
          return onChange?.(ids, items);
        }}
      />
    </div>
  );
}

const meta = {
  title: 'Kit/Person and organisation picker',
  loaders: [
    async ({ args }) => ({
      source: createMemoryPickerSource(demoPickerSeed(), {
        latencyMs: (args as DemoArgs).latencyMs ?? 30,
        fail: { roots: (args as DemoArgs).failRoots },
      }),
    }),
  ],
  render: (args, { loaded }) => <PickerDemo {...(args as DemoArgs)} source={loaded.source as MemoryPickerSource} />,
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta<DemoArgs>;

export default meta;
type Story = StoryObj<DemoArgs>;

const dialog = () => screen.findByRole('dialog', {}, { timeout: 3000 });
const orgBox = (id: string) => screen.findByTestId(`picker-org-checkbox-${id}`, {}, { timeout: 3000 });
const userBox = (name: string) => screen.findByRole('checkbox', { name: `Select ${name}` }, { timeout: 3000 });
const selectedCount = () => within(screen.getByTestId('picker-selected')).getAllByRole('listitem').length;
const sourceOf = (loaded: Record<string, unknown>) => loaded.source as MemoryPickerSource;

/** Select an organisation → every user under it checked and the organisation 'all'; uncheck one → 'half'. */
export const TriState: Story = {
  play: async ({ loaded }) => {
    await dialog();
    const eng = await orgBox(ORG.eng);
    await expect(eng).toHaveAttribute('data-tristate', 'none');
    await userEvent.click(eng);
    await waitFor(() => expect(eng).toHaveAttribute('data-tristate', 'all'));
    await expect(eng).toHaveAttribute('aria-checked', 'true');
    // Engineering has 7 people (sub-organisations included): all selected.
    await waitFor(() => expect(selectedCount()).toBe(7));
    // The root is now half: some of its people are checked.
    await waitFor(() => expect(screen.getByTestId(`picker-org-checkbox-${ORG.root}`)).toHaveAttribute('data-tristate', 'half'));

    // Open Engineering, then Platform: Alice is checked; uncheck her → Engineering half.
    await userEvent.click(screen.getByTestId(`picker-org-${ORG.eng}`));
    await userEvent.click(await screen.findByTestId(`picker-org-${ORG.platform}`, {}, { timeout: 3000 }));
    const alice = await userBox('Alice Chen');
    await expect(alice).toBeChecked();
    await userEvent.click(alice);
    await waitFor(() => expect(eng).toHaveAttribute('data-tristate', 'half'));
    await expect(eng).toHaveAttribute('aria-checked', 'mixed');
    await expect(screen.getByTestId(`picker-org-checkbox-${ORG.platform}`)).toHaveAttribute('data-tristate', 'half');
    await expect(selectedCount()).toBe(6);

    // The confirmed ensure-status calls were batched: never more calls than selection changes.
    const ensure = sourceOf(loaded).calls.filter((c) => c.method === 'ensureStatus').length;
    await expect(ensure).toBeLessThanOrEqual(3);

    await userEvent.click(screen.getByTestId('picker-confirm'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(screen.getByTestId('chosen').textContent?.split(', ')).toHaveLength(6);
  },
};

/** The search waits 500 ms after the last key, then shows matching organisations and people instead of the tree. */
export const Search: Story = {
  play: async ({ loaded }) => {
    await dialog();
    await orgBox(ORG.eng);
    const box = screen.getByRole('textbox', { name: 'Search' });
    const searches = () => sourceOf(loaded).calls.filter((c) => c.method === 'search');
    await userEvent.type(box, 'ali', { delay: 40 });
    // Within the debounce window nothing was asked.
    await expect(searches()).toHaveLength(0);
    await waitFor(() => expect(searches()).toHaveLength(1), { timeout: 2000 });
    await expect(searches()[0].args[0]).toBe('ali');
    const results = await screen.findByTestId('picker-results', {}, { timeout: 2000 });
    await userEvent.click(await within(results).findByRole('checkbox', { name: 'Select Alice Chen' }));
    await waitFor(() => expect(selectedCount()).toBe(1));
    // Clearing the box brings the tree back.
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await expect(await screen.findByTestId('picker-tree')).toBeVisible();
  },
};

/** An existing member (Frank, never loaded) is checked and disabled; users-ensure-status turns his organisations 'half'. */
export const DisabledMembers: Story = {
  args: { disabledIds: [USER.frank, USER.olivia], title: 'Add members' },
  play: async ({ loaded }) => {
    await dialog();
    const eng = await orgBox(ORG.eng);
    await waitFor(() => expect(eng).toHaveAttribute('data-tristate', 'half'));
    await expect(screen.getByTestId(`picker-org-checkbox-${ORG.product}`)).toHaveAttribute('data-tristate', 'half');
    // One batched call for all the organisations on screen.
    const ensure = sourceOf(loaded).calls.filter((c) => c.method === 'ensureStatus');
    await expect(ensure).toHaveLength(1);
    const olivia = await userBox('Olivia Wang');
    await expect(olivia).toBeChecked();
    await expect(olivia).toBeDisabled();
  },
};

/** One person only: no organisation checkboxes; a second pick replaces the first. */
export const SingleMode: Story = {
  args: { mode: 'single', title: 'Choose a reviewer' },
  play: async () => {
    await dialog();
    await userBox('Olivia Wang');
    await expect(screen.queryByTestId(`picker-org-checkbox-${ORG.eng}`)).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId(`picker-org-${ORG.product}`));
    await userEvent.click(await userBox('Grace Smith'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Olivia Wang' }));
    await waitFor(() => expect(selectedCount()).toBe(1));
    await expect(within(screen.getByTestId('picker-selected')).getByText('Olivia Wang')).toBeVisible();
  },
};

/** The keyboard: ↓ moves, → opens, Space checks. */
export const Keyboard: Story = {
  play: async () => {
    await dialog();
    await orgBox(ORG.eng);
    const tree = screen.getByRole('tree', { name: 'Organisation tree' });
    tree.focus();
    await userEvent.keyboard('{ArrowDown}'); // Engineering
    await userEvent.keyboard('{ArrowRight}'); // open it
    await screen.findByTestId(`picker-org-${ORG.platform}`, {}, { timeout: 3000 });
    await userEvent.keyboard('{ArrowDown}{ArrowRight}'); // Platform, open
    await userBox('Alice Chen');
    await userEvent.keyboard('{ArrowDown}'); // Alice, Platform's first person
    await userEvent.keyboard(' ');
    await waitFor(() => expect(selectedCount()).toBe(1));
    await expect(await userBox('Alice Chen')).toBeChecked();
    // ← goes back to Platform, ← again closes it.
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Select Alice Chen' })).not.toBeInTheDocument());
  },
};

export const PickOrganisations: Story = {
  args: { selectType: 'org', value: [ORG.platform] },
  play: async () => {
    await dialog();
    const platformSelected = () => within(screen.getByTestId('picker-selected')).getByText('Platform');
    await waitFor(() => expect(platformSelected()).toBeVisible());
    await waitFor(() => expect(screen.getByTestId(`picker-org-checkbox-${ORG.eng}`)).toHaveAttribute('data-tristate', 'half'));
    await expect(screen.queryByRole('checkbox', { name: /^Select Alice/ })).not.toBeInTheDocument();
  },
};

export const PeopleAndOrganisations: Story = { args: { selectType: 'both', value: [USER.alice, ORG.product] } };

/** Support has 200 people: 80 a page with 'load more', in a virtual list. */
export const ManyPeople: Story = {
  play: async () => {
    await dialog();
    await userEvent.click(await screen.findByTestId(`picker-org-${ORG.support}`, {}, { timeout: 3000 }));
    await screen.findByRole('checkbox', { name: /^Select Alice Chen 1$/ }, { timeout: 3000 });
    // End scrolls the virtual list to its last rows, where 'load more' is.
    screen.getByRole('tree', { name: 'Organisation tree' }).focus();
    await userEvent.keyboard('{End}');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more (120 left)' }, { timeout: 3000 }));
    // The next page arrives; End again reaches the new 'load more'.
    await waitFor(
      async () => {
        screen.getByRole('tree', { name: 'Organisation tree' }).focus();
        await userEvent.keyboard('{End}');
        await expect(screen.getByRole('button', { name: 'Load more (40 left)' })).toBeInTheDocument();
      },
      { timeout: 3000 },
    );
  },
};

export const Loading: Story = { args: { latencyMs: 1e9 } };

export const LoadFailed: Story = {
  args: { failRoots: true },
  play: async () => {
    const message = await screen.findByText('Could not load', {}, { timeout: 3000 });
    // The dialog fades in: visible once its opening animation has run.
    await waitFor(() => expect(message).toBeVisible(), { timeout: 3000 });
  },
};

/** The compact trigger: five chips, then '+N'. */
export const CompactField: Story = {
  render: (_args, { loaded }) => {
    function Field() {
      const [value, setValue] = useState([USER.alice, USER.bob, USER.carol, USER.frank, USER.olivia, demoId('user', 7), demoId('user', 8), demoId('user', 9)]);
      return (
        <div style={{ width: 520 }}>
          <PersonOrgPickerField value={value} onChange={setValue} dataSource={loaded.source as MemoryPickerSource} aria-label="Reviewers" />
        </div>
      );
    }
    return <Field />;
  },
  play: async ({ canvas }) => {
    const chips = await canvas.findByRole('list', { name: 'Reviewers' });
    await waitFor(() => expect(within(chips).getByText('Alice Chen')).toBeVisible());
    await expect(within(chips).getAllByRole('listitem')).toHaveLength(6);
    await expect(within(chips).getByText('+3')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Remove Alice Chen' }));
    await waitFor(() => expect(within(chips).getByText('+2')).toBeVisible());
  },
};
