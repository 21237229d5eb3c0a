/**
 * Optional sound, off by default: short tones made in the page with Web Audio (nothing fetched). The choice is
 * kept in local storage; the audio context is made on the person's own click, as browsers require.
 */
import { h } from "./dom";

const SOUND_KEY = "cardhall.sound";
type Cue = "card" | "turn" | "end";
const TONES: Record<Cue, Array<[frequency: number, seconds: number]>> = {
  card: [[660, 0.05]],
  turn: [
    [520, 0.08],
    [780, 0.1],
  ],
  end: [
    [523, 0.12],
    [659, 0.12],
    [784, 0.2],
  ],
};

let context: AudioContext | undefined;

function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

function setSound(on: boolean): void {
  try {
    if (on) localStorage.setItem(SOUND_KEY, "on");
    else localStorage.removeItem(SOUND_KEY);
  } catch {
    // storage refused: the choice holds for this page
  }
  if (on) context ??= new AudioContext();
}

/** Plays a cue when sound is on; silent (and free) otherwise. */
export function play(cue: Cue): void {
  if (!soundOn()) return;
  context ??= new AudioContext();
  let at = context.currentTime;
  for (const [frequency, seconds] of TONES[cue]) {
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.08, at);
    volume.gain.exponentialRampToValueAtTime(0.001, at + seconds);
    tone.connect(volume).connect(context.destination);
    tone.start(at);
    tone.stop(at + seconds);
    at += seconds;
  }
}

/** The toggle: a button named "Sound", pressed when on. */
export function soundToggle(): HTMLButtonElement {
  const toggle = h("button", {
    type: "button",
    text: "Sound",
    class: "sound-toggle",
    pressed: soundOn(),
    key: "sound",
  });
  toggle.addEventListener("click", () => {
    const on = !soundOn();
    setSound(on);
    toggle.setAttribute("aria-pressed", String(on));
    if (on) play("card");
  });
  return toggle;
}
