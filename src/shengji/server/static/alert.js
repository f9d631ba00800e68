// The turn alert: when it becomes this seat's turn, the page title says so ("▶ Your
// turn"), a short tone plays (generated here, no sound file; muted with the ♪ button,
// remembered per browser) and a phone vibrates.
import { t } from "./i18n.js";

const SOUND_KEY = "shengji:sound";
let audio = null;

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch (_) { return true; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (_) { /* private mode: this page only */ }
}

// The page title, with the turn marker when it is this seat's turn.
export function turnTitle(mine) {
  const base = t("appTitle");
  document.title = mine ? `▶ ${t("yourTurn")} · ${base}` : base;
}

function tone() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = audio || new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.26);
    window.shengjiTones = (window.shengjiTones || 0) + 1; // what the tests count
  } catch (_) { /* no audio device: the title and vibration still tell */ }
}

// A turn has just come to this seat.
export function turnCame() {
  window.shengjiTurns = (window.shengjiTurns || 0) + 1; // what the tests count
  turnTitle(true);
  if (soundOn()) tone();
  // browsers refuse (and complain) before the person has touched the page
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (navigator.vibrate && touched) navigator.vibrate(150);
}
