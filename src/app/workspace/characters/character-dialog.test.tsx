import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { replaceExports } from '../../../../tests/unit/replace-exports';
import * as digitalHumansApi from '../../../api/digital-humans';
import * as filesApi from '../../../api/files';
import * as modelsApi from '../../../api/models';
import { i18n, initI18n } from '../../../i18n';
import { setToasts } from '../../../ui/toast-store';
import { CharacterDialog } from './character-dialog';

// The character dialog (issue 31): the voice is picked from the tenant's tts models and the voices
// GET /console/characters/voices gives for the chosen one, a "listen" button speaks a sample in it,
// an SVG portrait is uploaded like any image (the server draws it into a PNG), and a file that is no
// image is refused before any upload with the catalogue's DH-1050 message.

const api = {
  listVoices: vi.fn(),
  voiceSample: vi.fn(),
  createCharacter: vi.fn(),
  updateCharacter: vi.fn(),
  availableModels: vi.fn(),
  uploadFile: vi.fn(),
};

const OFFLINE = [
  { id: 'zh', label: '中文 (eSpeak NG cmn)', language: 'zh' },
  { id: 'en', label: 'English (eSpeak NG en-us)', language: 'en' },
];
const played: string[] = [];

beforeAll(async () => {
  replaceExports(digitalHumansApi, { listVoices: api.listVoices, voiceSample: api.voiceSample, createCharacter: api.createCharacter, updateCharacter: api.updateCharacter });
  replaceExports(modelsApi, { availableModels: api.availableModels });
  replaceExports(filesApi, { uploadFile: api.uploadFile });
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  // jsdom plays no media: a played sample is recorded instead.
  Object.assign(URL, { createObjectURL: () => 'blob:sample', revokeObjectURL: () => {} });
  HTMLMediaElement.prototype.play = async function play(this: HTMLMediaElement) {
    played.push(this.src);
  };
  HTMLMediaElement.prototype.pause = () => {};
  await initI18n('en');
});
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
beforeEach(async () => {
  setToasts([]);
  played.length = 0;
  for (const f of Object.values(api)) f.mockReset();
  api.availableModels.mockResolvedValue([{ provider: 'openai_api_compatible', label: 'OpenAI-API-compatible', models: [{ model: 'tts-1', label: 'tts-1' }] }]);
  api.listVoices.mockImplementation(async (q: { provider?: string }) => (q.provider === 'openai_api_compatible' ? [{ id: 'alloy', label: 'alloy' }, { id: 'nova', label: 'nova' }] : OFFLINE));
  api.voiceSample.mockResolvedValue(new Blob(['RIFF'], { type: 'audio/wav' }));
  api.createCharacter.mockImplementation(async (body: object) => ({ id: 'c1', ...body }));
  await i18n.changeLanguage('en');
});

function setup() {
  const onSaved = vi.fn();
  render(<CharacterDialog workspaceId="ws1" target="new" onClose={() => {}} onSaved={onSaved} />);
  return { onSaved, user: userEvent.setup({ applyAccept: false }) };
}

async function choose(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  const dialog = await screen.findByTestId('character-dialog');
  await user.click(within(dialog).getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the character dialog', () => {
  it("picks a tts model and one of its voices, plays a sample in it, and saves that voice", async () => {
    const { user, onSaved } = setup();
    const dialog = await screen.findByTestId('character-dialog');
    // Without a model chosen: the default model's voices (here the offline voice's languages).
    await waitFor(() => expect(api.listVoices).toHaveBeenCalledWith({ provider: undefined, model: undefined }, expect.anything()));
    await choose(user, 'Speech model', 'OpenAI-API-compatible / tts-1');
    await waitFor(() => expect(api.listVoices).toHaveBeenLastCalledWith({ provider: 'openai_api_compatible', model: 'tts-1' }, expect.anything()));
    await choose(user, 'Voice', 'nova');

    await user.click(within(dialog).getByTestId('character-voice-listen'));
    await waitFor(() => expect(played).toEqual(['blob:sample']));
    expect(api.voiceSample).toHaveBeenCalledWith({ voice: { speed: 1, provider: 'openai_api_compatible', model: 'tts-1', voice: 'nova' }, text: 'Hello, nice to meet you.', language: 'en' }, expect.anything());

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Nova');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.createCharacter.mock.calls[0][0]).toMatchObject({ name: 'Nova', voice: { provider: 'openai_api_compatible', model: 'tts-1', voice: 'nova', speed: 1 } });
  });

  it('the offline voice offers its languages; the sample is said in the language picked', async () => {
    const { user } = setup();
    await choose(user, 'Speech model', 'Built-in offline voice (eSpeak NG)');
    await waitFor(() => expect(api.listVoices).toHaveBeenLastCalledWith({ provider: 'weft_offline', model: 'espeak-ng' }, expect.anything()));
    await choose(user, 'Voice', '中文 (eSpeak NG cmn)');
    await user.click(screen.getByTestId('character-voice-listen'));
    await waitFor(() => expect(api.voiceSample).toHaveBeenCalled());
    expect(api.voiceSample.mock.calls[0][0]).toMatchObject({ voice: { provider: 'weft_offline', model: 'espeak-ng', voice: 'zh' }, text: '你好，很高兴认识你。', language: 'zh' });
  });

  it('uploads an SVG portrait as an icon (the server draws it into a PNG) and refuses a file that is no image before uploading it (en and zh)', async () => {
    for (const [lang, text] of [
      ['en', 'A portrait must be an image: PNG, JPG, WebP, GIF, BMP or SVG'],
      ['zh', '形象照片须为图片：PNG、JPG、WebP、GIF、BMP 或 SVG'],
    ] as const) {
      await i18n.changeLanguage(lang);
      api.uploadFile.mockReset().mockResolvedValue({ id: '00000000-0000-4000-8000-0000000000a1', name: 'face.svg', size: 42, mime_type: 'image/svg+xml' });
      const { user } = setup();
      const input = (await screen.findByTestId('character-portrait-input')) as HTMLInputElement;
      expect(input.accept).toContain('.svg');
      // A user can still pick any file (the picker's filter is a hint): it is refused here.
      await user.upload(input, new File(['hello'], 'face.txt', { type: 'text/plain' }));
      expect(await within(screen.getByTestId('character-portrait')).findByRole('alert')).toHaveTextContent(text);
      expect(api.uploadFile).not.toHaveBeenCalled();
      await user.upload(input, new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'face.svg', { type: 'image/svg+xml' }));
      await waitFor(() => expect(api.uploadFile).toHaveBeenCalledTimes(1));
      expect(api.uploadFile.mock.calls[0][1]).toBe('icon');
      cleanup();
    }
  });
});
