/** What a timer's end does on this device: a beep (Web Audio), a vibration, a notification when
 * allowed; and the screen kept awake while a timer runs (Screen Wake Lock). Each is best effort:
 * a browser without one simply skips it. */
import { useEffect } from 'react';

let audio: AudioContext | null = null;

/** Creates (or resumes) the audio context; call it from a tap so the browser lets it play later. */
export function primeAudio(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

/** Three short beeps at 880 Hz. */
export function beep(): void {
  primeAudio();
  if (!audio) return;
  const t0 = audio.currentTime;
  for (let i = 0; i < 3; i++) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'square';
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, t0 + i * 0.4);
    gain.gain.exponentialRampToValueAtTime(0.3, t0 + i * 0.4 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.4 + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + i * 0.4);
    osc.stop(t0 + i * 0.4 + 0.3);
  }
}

/** Asks for notifications once, on the first timer start (a tap), if not yet decided. */
export function askNotifications(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** Sounds, vibrates and (when allowed) notifies that `title`'s timer has ended. */
export function alarm(title: string): void {
  beep();
  try {
    navigator.vibrate?.([400, 200, 400, 200, 400]);
  } catch {
    // Not every browser vibrates.
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    try {
      new Notification('Timer done', { body: title, tag: `wort-timer-${title}` });
    } catch {
      // Some mobile browsers only notify through a service worker.
    }
  }
}

interface WakeLockSentinelLike {
  release: () => Promise<void>;
  released: boolean;
}

/** Holds a screen wake lock while `active` (re-taken when the page becomes visible again, since
 * the browser drops it when hidden); released otherwise. */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    const wl = (navigator as unknown as { wakeLock?: { request: (t: 'screen') => Promise<WakeLockSentinelLike> } }).wakeLock;
    if (!active || !wl) return;
    let lock: WakeLockSentinelLike | null = null;
    let gone = false;
    const take = () => {
      if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      wl.request('screen')
        .then((l) => {
          if (gone) void l.release();
          else lock = l;
        })
        .catch(() => undefined);
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      gone = true;
      document.removeEventListener('visibilitychange', take);
      if (lock && !lock.released) void lock.release();
    };
  }, [active]);
}
