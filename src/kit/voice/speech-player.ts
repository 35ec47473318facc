/**
 * Plays sentences in order while later ones are still being synthesised: each sentence's audio is
 * asked for as soon as it is queued (so the next is ready when one ends), played one after another
 * through one <audio> element, whose output goes through a WebAudio AnalyserNode for the avatar's
 * level. `stop()` cuts playback and the pending requests (the user spoke again or pressed stop).
 */
export type Synthesize = (text: string, signal: AbortSignal) => Promise<Blob>;

export interface PlayerEvents {
  /** Playing or not (queue empty or stopped). */
  onSpeaking?: (speaking: boolean) => void;
  /** The audio level 0..1, about every frame while playing. */
  onLevel?: (level: number) => void;
  /** One sentence finished playing. */
  onEnded?: () => void;
  /** A sentence could not be synthesised or played (it is skipped). */
  onError?: (e: unknown) => void;
}

export class SpeechPlayer {
  private readonly audio = new Audio();
  private queue: { audio: Promise<Blob | null> }[] = [];
  private ctrl = new AbortController();
  private playing = false;
  private context: AudioContext | null = null;
  private analyser: AnalyserNode | null = null;
  private frame = 0;
  private url: string | null = null;

  constructor(
    private readonly synthesize: Synthesize,
    private readonly events: PlayerEvents = {},
  ) {
    this.audio.preload = 'auto';
  }

  /** Queues a sentence: its synthesis starts now, it plays after those before it. */
  say(text: string) {
    const signal = this.ctrl.signal;
    const audio = this.synthesize(text, signal).catch((e: unknown) => {
      if (!signal.aborted) this.events.onError?.(e);
      return null;
    });
    this.queue.push({ audio });
    if (!this.playing) void this.next();
  }

  /** Stops what plays and drops what waits. */
  stop() {
    this.ctrl.abort();
    this.ctrl = new AbortController();
    this.queue = [];
    this.audio.pause();
    this.release();
    this.setPlaying(false);
  }

  dispose() {
    this.stop();
    void this.context?.close();
    this.context = null;
  }

  private setPlaying(on: boolean) {
    if (this.playing === on) return;
    this.playing = on;
    this.events.onSpeaking?.(on);
    if (!on) {
      cancelAnimationFrame(this.frame);
      this.events.onLevel?.(0);
    }
  }

  private release() {
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
  }

  /** The analyser on the <audio> element's output (made once; WebAudio needs a page gesture first). */
  private meter(): AnalyserNode | null {
    if (this.analyser) return this.analyser;
    try {
      this.context = new AudioContext();
      const source = this.context.createMediaElementSource(this.audio);
      this.analyser = this.context.createAnalyser();
      this.analyser.fftSize = 512;
      source.connect(this.analyser);
      this.analyser.connect(this.context.destination);
    } catch {
      this.analyser = null;
    }
    return this.analyser;
  }

  private watchLevel() {
    const analyser = this.analyser;
    if (!analyser) return;
    const data = new Uint8Array(analyser.fftSize);
    const tick = () => {
      analyser.getByteTimeDomainData(data);
      let sum = 0;
      for (const v of data) sum += (v - 128) * (v - 128);
      // RMS of the wave (0..~0.5 for speech), scaled so normal speech reaches about 1.
      this.events.onLevel?.(Math.min(1, (Math.sqrt(sum / data.length) / 128) * 4));
      this.frame = requestAnimationFrame(tick);
    };
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(tick);
  }

  private async next(): Promise<void> {
    const item = this.queue.shift();
    if (!item) return this.setPlaying(false);
    this.setPlaying(true);
    const signal = this.ctrl.signal;
    const blob = await item.audio;
    if (signal.aborted) return;
    if (!blob) return this.next();
    this.release();
    this.url = URL.createObjectURL(blob);
    this.audio.src = this.url;
    this.meter();
    if (this.context?.state === 'suspended') await this.context.resume().catch(() => undefined);
    const done = new Promise<void>((resolve) => {
      this.audio.onended = () => resolve();
      this.audio.onerror = () => resolve();
    });
    try {
      await this.audio.play();
      this.watchLevel();
      await done;
      if (signal.aborted) return;
      this.events.onEnded?.();
    } catch (e) {
      if (signal.aborted) return;
      this.events.onError?.(e);
    }
    return this.next();
  }
}
