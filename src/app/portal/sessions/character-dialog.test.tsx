import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalAppDetail } from '../../../../schemas/portal';
import { i18n, initI18n } from '../../../i18n';
import { useSession } from '../../session';
import { createMemoryPortalApi, demoPortalApps, memoryConversation } from '../memory-portal-api';
import { PortalApiContext } from '../portal-api';
import { readVoicePrefs, voicePrefsKey } from '../voice-prefs';
import { CharacterDialog } from './character-dialog';

// The sessions page's character settings (issue 31): a digital-human app's character shows (look,
// name, greeting, voice), and the user chooses whether answers are read out and their speed within
// the character's range; the choice is kept per user and app and is there again after a reload.

const USER = 'u0000000-0000-4000-8000-000000000001';
const [plain, dh] = demoPortalApps(2).map((a) => ({ ...a, mode: 'chatflow' as const }));
const character = { name: 'Guide', portrait_url: '/api/v1/common/files/f1/icon', idle_clip_url: null, voice: { voice: 'nova', model: 'tts-1', speed: 1.2 }, greeting: 'Hi, I am Guide.' };
const dhApp: PortalAppDetail = { ...dh, features: { ...dh.features, text_to_speech: true }, character };

beforeAll(async () => {
  // Radix's Switch measures itself.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as never;
  await initI18n('en');
});
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
beforeEach(async () => {
  localStorage.clear();
  useSession.setState({ user: { id: USER } as never });
  await i18n.changeLanguage('en');
});

function setup(app: PortalAppDetail) {
  const api = createMemoryPortalApi({ apps: [plain, dhApp] });
  const onSave = vi.fn(async () => undefined);
  const conversation = memoryConversation(app, 'Talk');
  const view = () => (
    <PortalApiContext value={api}>
      <CharacterDialog conversation={conversation} onClose={() => {}} onSave={onSave} />
    </PortalApiContext>
  );
  render(view());
  return { onSave, user: userEvent.setup() };
}

describe('character settings', () => {
  it("shows a digital human's character and keeps the user's voice choices per user and app across a reload", async () => {
    const { user, onSave } = setup(dhApp);
    const card = await screen.findByTestId('character-card');
    expect(within(card).getByRole('img', { name: 'Guide' })).toHaveAttribute('src', character.portrait_url);
    expect(within(card).getByTestId('character-card-name')).toHaveTextContent('Guide');
    expect(within(card).getByTestId('character-card-greeting')).toHaveTextContent('Hi, I am Guide.');
    expect(within(card).getByTestId('character-card-voice')).toHaveTextContent('nova · tts-1 · 1.2×');
    // By default answers are read out at the character's speed; the slider keeps to its range.
    expect(screen.getByTestId('character-speak')).toHaveAttribute('aria-checked', 'true');
    const slider = screen.getByTestId('character-speed') as HTMLInputElement;
    expect([slider.min, slider.max, slider.value]).toEqual(['0.5', '2', '1.2']);
    fireEvent.change(slider, { target: { value: '1.5' } });
    expect(screen.getByTestId('character-speed-value')).toHaveTextContent('1.5×');
    await user.click(screen.getByTestId('character-speak'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(JSON.parse(localStorage.getItem(voicePrefsKey(USER, dhApp.id))!)).toEqual({ speak: false, speed: 1.5 });

    // A reload: a new dialog reads the stored choice; another user of the browser has their own.
    cleanup();
    setup(dhApp);
    await screen.findByTestId('character-card');
    await waitFor(() => expect(screen.getByTestId('character-speak')).toHaveAttribute('aria-checked', 'false'));
    expect((screen.getByTestId('character-speed') as HTMLInputElement).value).toBe('1.5');
    expect(readVoicePrefs('someone-else', dhApp.id)).toEqual({ speak: true, speed: null });
  });

  it('an ordinary app shows the persona only; a stored value that does not fit reads as the defaults', async () => {
    setup(plain);
    expect(await screen.findByRole('textbox')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('character-card')).toBeNull();
    localStorage.setItem(voicePrefsKey(USER, dhApp.id), JSON.stringify({ speak: 'yes', speed: 9 }));
    expect(readVoicePrefs(USER, dhApp.id)).toEqual({ speak: true, speed: null });
  });
});
