import { NavLink } from 'react-router-dom';
import { useSignOut } from '../auth/session';
import type { Schemas } from '../api/client';

const links = [
  ['/recipes', 'Recipes'],
  ['/sessions', 'Brew sessions'],
  ['/inventory', 'Inventory'],
  ['/shopping-list', 'Shopping list'],
  ['/ingredients', 'Ingredients'],
  ['/equipment', 'Equipment'],
  ['/devices', 'Devices'],
  ['/webhooks', 'Webhooks'],
  ['/assistant', 'Assistant'],
  ['/account', 'Account'],
] as const;

export function Layout({ user, children }: { user: Schemas['UserBody']; children: React.ReactNode }) {
  const signOut = useSignOut();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="brand" aria-hidden="true">
          <span className="logo">◉</span> wort
        </div>
        <nav aria-label="Main">
          <ul>
            {links.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to}>{label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span className="user-name" title={user.email}>
            {user.name}
          </span>
          <button type="button" className="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
