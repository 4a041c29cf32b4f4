// Where to go after signing in.

/** Only same-site paths: never an open redirect. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/signin') || next.startsWith('/signup')) return '/';
  return next;
}
