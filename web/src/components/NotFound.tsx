import { Link } from 'react-router-dom';

export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <section className="not-found">
      <h1>Not found</h1>
      <p>This {what} does not exist, or it is not yours.</p>
      <p>
        <Link to="/recipes">Open the recipe list</Link>
      </p>
    </section>
  );
}
