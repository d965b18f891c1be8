/**
 * The reader's choices, kept in this browser: the theme (the system's, light
 * or dark), the text size, and the signals of "your turn" (a sound, a system
 * notification). Applied to <html> as data attributes the style sheet reads.
 */
export interface Reading {
  theme: "system" | "light" | "dark";
  /** Steps of text size from the default: 0 (100 %) to 3. */
  size: number;
  sound: boolean;
  notify: boolean;
}

const KEY = "taleforge:reading";
export const SIZES = ["100 %", "115 %", "130 %", "150 %"] as const;

export function loadReading(): Reading {
  const fallback: Reading = { theme: "system", size: 0, sound: false, notify: false };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Reading>;
    return {
      theme: saved.theme === "light" || saved.theme === "dark" ? saved.theme : "system",
      size: Number.isInteger(saved.size) ? Math.min(SIZES.length - 1, Math.max(0, saved.size!)) : 0,
      sound: saved.sound === true,
      notify: saved.notify === true,
    };
  } catch {
    return fallback;
  }
}

export function saveReading(reading: Reading): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(reading));
  } catch {
    // Private browsing without storage: the choice lasts for this page.
  }
  applyReading(reading);
}

export function applyReading(reading: Reading): void {
  const root = document.documentElement;
  if (reading.theme === "system") delete root.dataset.theme;
  else root.dataset.theme = reading.theme;
  root.dataset.text = String(reading.size);
}

/** A short two-note chime made in the page (no file to fetch), for "your turn" when sound is on. */
export function chime(): void {
  try {
    const context = new AudioContext();
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(0.0001, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, context.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.6);
    for (const [frequency, at] of [
      [660, 0],
      [880, 0.18],
    ] as const) {
      const tone = context.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(context.currentTime + at);
      tone.stop(context.currentTime + at + 0.4);
    }
    setTimeout(() => void context.close(), 1000);
  } catch {
    // No audio here: the title still says it.
  }
}
