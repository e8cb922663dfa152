/** Where each calendar app subscribes to a feed. */
export interface SubscribeLinks {
  google: string;
  apple: string;
  outlook: string;
}

/**
 * The links that open a calendar app's "subscribe" step with the feed at
 * `url` already filled in: Google Calendar and Outlook on the web take it as
 * a parameter; Apple Calendar (and Outlook on a desktop) open `webcal:`.
 */
export function subscribeLinks(url: string, name: string): SubscribeLinks {
  const webcal = url.replace(/^https?:/, 'webcal:');
  return {
    google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`,
    apple: webcal,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?url=${encodeURIComponent(url)}&name=${encodeURIComponent(name)}`,
  };
}
