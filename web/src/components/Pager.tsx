import { useSearchParams } from 'react-router-dom';

/** The page of a paged list, counted from 0, kept in the URL (`?page=`) so a reload or a link keeps it. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? '0') || 0);
  const go = (p: number) => {
    const next = new URLSearchParams(params);
    if (p <= 0) next.delete('page');
    else next.set('page', String(p));
    setParams(next, { replace: true });
  };
  return [page, go];
}

/** How many pages `total` items make at `size` a page (at least one). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

interface Props {
  /** The navigation's accessible name. */
  label: string;
  page: number;
  pages: number;
  /** What the middle says after the page numbers: "22 recipes". */
  summary: string;
  go: (page: number) => void;
  previous?: string;
  next?: string;
}

/** Previous and next buttons around "Page n of m · summary"; the API pages with `limit`/`offset` and counts with `X-Total-Count`. */
export function Pager({ label, page, pages, summary, go, previous = 'Previous page', next = 'Next page' }: Props) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={page === 0} onClick={() => go(page - 1)}>
        {previous}
      </button>
      <span>
        Page {page + 1} of {pages} · {summary}
      </span>
      <button type="button" disabled={page + 1 >= pages} onClick={() => go(page + 1)}>
        {next}
      </button>
    </nav>
  );
}
