/** The windows the page offers, as the agent's `since` takes them (10s to 1h). */
export const trafficWindows = ['1m', '5m', '15m', '1h'] as const;
export type TrafficWindow = (typeof trafficWindows)[number];

export interface TrafficSearch {
  /** The window of flows shown; 5m when absent (the agent's default). */
  since?: TrafficWindow;
}

/** `5 min`, `1 hour`. */
export const windowWords = (w: TrafficWindow) => w.replace('m', ' min').replace('h', ' hour');
