/*
 * sound.ts -- plays the sounds of sounds.ts, synthesised with Web Audio by
 * the project (no sound files): a card laid is a short filtered noise (the
 * card on the cloth), a capture adds a low rising tone, a scopa a bright
 * four-note arpeggio, the viewer's turn a soft two-note chime, the end of
 * a round three falling notes.
 *
 * What must stay true: the AudioContext is made at the first sound, which
 * the reducer only asks for after a gesture (so browsers allow it); a page
 * without Web Audio, or one that refuses it, is silent, never broken.
 */
import type { SoundName } from './sounds.js';

let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (!ctx) {
    const AC = (window as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!AC) return null;
    try {
      ctx = new AC();
    } catch {
      return null;
    }
  }
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  return ctx;
}

/** A tone: `freq` Hz, from `at` seconds, `dur` long, with a soft envelope. */
function tone(
  c: AudioContext,
  freq: number,
  at: number,
  dur: number,
  type: OscillatorType,
  vol: number,
): void {
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(vol, at + 0.015);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  o.connect(g).connect(c.destination);
  o.start(at);
  o.stop(at + dur + 0.02);
}

/** A card on the cloth: 70 ms of noise through a band-pass filter. */
function slap(c: AudioContext, at: number): void {
  const n = Math.floor(c.sampleRate * 0.07);
  const buf = c.createBuffer(1, n, c.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = c.createBufferSource();
  src.buffer = buf;
  const f = c.createBiquadFilter();
  f.type = 'bandpass';
  f.frequency.value = 1800;
  f.Q.value = 0.8;
  const g = c.createGain();
  g.gain.value = 0.5;
  src.connect(f).connect(g).connect(c.destination);
  src.start(at);
}

export function playSound(name: SoundName): void {
  const c = audio();
  if (!c) return;
  const t = c.currentTime + 0.01;
  switch (name) {
    case 'play':
      return slap(c, t);
    case 'capture':
      slap(c, t);
      tone(c, 330, t + 0.05, 0.18, 'triangle', 0.12);
      return tone(c, 440, t + 0.12, 0.2, 'triangle', 0.12);
    case 'scopa':
      slap(c, t);
      [523, 659, 784, 1047].forEach((f, i) =>
        tone(c, f, t + 0.06 + i * 0.09, 0.3, 'triangle', 0.16),
      );
      return;
    case 'turn':
      tone(c, 880, t, 0.22, 'sine', 0.08);
      return tone(c, 1175, t + 0.11, 0.3, 'sine', 0.07);
    case 'round':
      [784, 659, 523].forEach((f, i) => tone(c, f, t + i * 0.14, 0.32, 'sine', 0.1));
      return;
  }
}
