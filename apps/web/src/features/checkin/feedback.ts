import type { LocalVerdict } from './scan-log';

let audio: AudioContext | undefined;

/**
 * A sound and a buzz for a verdict, where the device has them: one high beep to let in, two low
 * ones to stop. Door staff often look at the person, not at the screen.
 */
export function signal(verdict: LocalVerdict) {
  const good = verdict.result === 'accepted' || verdict.result === 'provisional';
  navigator.vibrate?.(good ? 120 : [90, 60, 90]);
  try {
    audio ??= new AudioContext();
    const beeps = good
      ? [{ at: 0, hz: 1320 }]
      : [
          { at: 0, hz: 330 },
          { at: 0.18, hz: 330 },
        ];
    for (const beep of beeps) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = beep.hz;
      gain.gain.value = 0.15;
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(audio.currentTime + beep.at);
      oscillator.stop(audio.currentTime + beep.at + 0.12);
    }
  } catch {
    // No audio here (or not allowed yet): the colour and the words carry the verdict.
  }
}

/**
 * Makes the sound system ready while the scanner opens: the first beep would otherwise wait for it
 * (over 100 ms on a slowed phone, bench/scanner-10k), and with it the first verdict.
 */
export function prepareSignal() {
  try {
    audio ??= new AudioContext();
  } catch {
    // No audio here.
  }
  // Made before anyone touched the page, it stays silent until a key press or a tap lets it play
  // (the browsers' autoplay rule; Safari wants `resume` called within the event): the first one does.
  document.addEventListener('pointerdown', unlockSignal, { capture: true, once: true });
  document.addEventListener('keydown', unlockSignal, { capture: true, once: true });
}

/** Lets the sound play: within the first key press or tap on the page. */
function unlockSignal() {
  if (audio?.state === 'suspended') void audio.resume().catch(() => undefined);
}
