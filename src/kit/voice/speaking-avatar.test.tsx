import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SpeakingAvatar } from './speaking-avatar';

afterEach(cleanup);

describe('SpeakingAvatar', () => {
  it('plays a character\'s idle clip, muted and looped, instead of the still portrait', () => {
    render(<SpeakingAvatar name="Looper" imageUrl="/face.png" clipUrl="/idle.mp4" level={0.5} speaking />);
    const avatar = screen.getByTestId('speaking-avatar');
    const video = avatar.querySelector('video');
    expect(video).not.toBeNull();
    expect(video!.getAttribute('src')).toBe('/idle.mp4');
    // The portrait shows until the clip's first frame; no <img> of it beside the clip.
    expect(video!.getAttribute('poster')).toBe('/face.png');
    expect(video!.muted).toBe(true);
    expect(video!.loop).toBe(true);
    expect(video!.autoplay).toBe(true);
    expect(avatar.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Looper' })).toBe(avatar);
  });

  it('shows the portrait without a clip, and the icon without either', () => {
    const { rerender } = render(<SpeakingAvatar name="Still" imageUrl="/face.png" level={0} speaking={false} />);
    const avatar = screen.getByTestId('speaking-avatar');
    expect(avatar.querySelector('video')).toBeNull();
    expect(avatar.querySelector('img')!.getAttribute('src')).toBe('/face.png');
    rerender(
      <SpeakingAvatar name="Icon" level={0} speaking={false}>
        <span data-testid="icon" />
      </SpeakingAvatar>,
    );
    expect(avatar.querySelector('video, img')).toBeNull();
    expect(screen.getByTestId('icon')).toBeTruthy();
  });
});
