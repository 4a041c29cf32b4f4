// A share link as the person pastes it. Unit-tested in share.test.ts.

/** The API's link made absolute against this page's origin (a path stays usable when pasted elsewhere). */
export function absoluteLink(url: string, origin: string): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}
