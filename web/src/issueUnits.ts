// A 422's bound in the unit the person typed in: "Must be at most 5.28 gal", not "… 20" (litres).
// The bound is the API's (`minimum` / `maximum` of the detail); only its unit changes.
import type { Preferences } from './api/extra';
import { ApiError, type Issue } from './api/client';
import { display, type Kind } from './units';

export function issueInUnits(issue: Issue, kind: Kind, p: Preferences): Issue {
  const inclusive = issue.inclusive !== false;
  if (issue.code === 'too_big' && typeof issue.maximum === 'number')
    return { ...issue, message: `Must be ${inclusive ? 'at most' : 'less than'} ${display(issue.maximum, kind, p)}` };
  if (issue.code === 'too_small' && typeof issue.minimum === 'number')
    return { ...issue, message: `Must be ${inclusive ? 'at least' : 'more than'} ${display(issue.minimum, kind, p)}` };
  // A bound the API words itself ("Must not be larger than the batch (20 L)"): its litres replaced.
  for (const bound of [issue.maximum, issue.minimum]) {
    const litres = typeof bound === 'number' && (kind === 'volume' || kind === 'volume_rate') ? `${bound} L` : null;
    if (litres && issue.message.includes(litres)) return { ...issue, message: issue.message.replace(litres, display(bound, kind, p)) };
  }
  return issue;
}

/** The error with the bounds of the named numeric fields in display units; other errors as they are. */
export function withDisplayUnits(e: unknown, kinds: Record<string, Kind>, p: Preferences): unknown {
  if (!(e instanceof ApiError) || !e.details.length) return e;
  const details = e.details.map((d) => {
    const kind = kinds[String(d.path[0] ?? '')];
    return kind && d.path.length === 1 ? issueInUnits(d, kind, p) : d;
  });
  return new ApiError(e.status, e.message, details, e.retryAfter);
}
